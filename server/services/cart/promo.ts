import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { bestDiscount, modCovers, promoCodeProblem } from '../../../src/domain/promo';
import { DomainError } from '../errors';

type Trx = Transaction<Database>;

let unsafeSkipPromoGuard = false;
/**
 * Tests only: takes a code's use without the `used < max_usage` condition, so the concurrency test can observe the
 * over-use the guard prevents. Not reachable from HTTP or configuration.
 */
export function setUnsafeSkipPromoGuardForTests(on: boolean): void {
  unsafeSkipPromoGuard = on;
}

/**
 * Takes one use of a code: a conditional `used + 1` that only a code with a use left satisfies. Concurrent takers
 * queue on the code's row and each sees the count the previous one committed, so a code of max_usage 1 is taken
 * once however many carts try at once. Nothing is read and checked beforehand: the update is the check.
 */
export async function takeUse(trx: Trx, promoCodeId: string): Promise<boolean> {
  const row = await trx
    .updateTable('promo_code')
    .set({ used: sql`used + 1` })
    .where('id', '=', promoCodeId)
    .$if(!unsafeSkipPromoGuard, (q) => q.where(sql<boolean>`(max_usage < 0 or used < max_usage)`))
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

/** Gives back the uses these carts hold (expiry, cancellation), once: the flag is cleared by the same statement. */
export async function releaseUses(trx: Trx, cartIds: string[]): Promise<void> {
  if (cartIds.length === 0) return;
  const released = await trx
    .updateTable('cart_code')
    .set({ use_held: false })
    .where('cart_id', 'in', cartIds)
    .where('use_held', '=', true)
    .returning('promo_code_id')
    .execute();
  await giveBack(
    trx,
    released.map((r) => r.promo_code_id),
  );
}

export async function giveBack(trx: Trx, promoCodeIds: string[]): Promise<void> {
  const counts = new Map<string, number>();
  for (const id of promoCodeIds) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const [id, n] of [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    await trx
      .updateTable('promo_code')
      .set({ used: sql`greatest(used - ${n}, 0)` })
      .where('id', '=', id)
      .execute();
  }
}

/**
 * A cart revived by a late payment (it had expired) takes its codes' uses again, guarded; a code used up meanwhile
 * leaves the cart, and the new price then no longer matches what the payment offered.
 */
export async function retakeUses(trx: Trx, cartId: string): Promise<void> {
  const released = await trx
    .selectFrom('cart_code')
    .select('promo_code_id')
    .where('cart_id', '=', cartId)
    .where('use_held', '=', false)
    .orderBy('promo_code_id')
    .execute();
  for (const r of released) {
    if (await takeUse(trx, r.promo_code_id)) {
      await trx
        .updateTable('cart_code')
        .set({ use_held: true })
        .where('cart_id', '=', cartId)
        .where('promo_code_id', '=', r.promo_code_id)
        .execute();
    } else {
      await trx.deleteFrom('cart_code').where('cart_id', '=', cartId).where('promo_code_id', '=', r.promo_code_id).execute();
    }
  }
  if (released.length > 0) await repriceCart(trx, cartId);
}

/** The cart mods of the codes a cart holds, in the order they were applied. */
export async function cartMods(trx: Kysely<Database>, cartId: string) {
  return trx
    .selectFrom('cart_code')
    .innerJoin('promo_code', 'promo_code.id', 'cart_code.promo_code_id')
    .innerJoin('cart_mod', 'cart_mod.id', 'promo_code.cart_mod_id')
    .select([
      'cart_mod.id as id',
      'cart_mod.name as name',
      'cart_mod.discount_type as discount_type',
      'cart_mod.discount_value as discount_value',
      'cart_mod.ticket_type_ids as ticket_type_ids',
      'cart_mod.blocking_checkout as blocking_checkout',
      'cart_mod.resource as resource',
      'cart_mod.resource_id as resource_id',
      'cart_mod.activating_code_groups as activating_code_groups',
      'promo_code.id as promo_code_id',
      'promo_code.code as code',
      'cart_code.applied_at as applied_at',
    ])
    .where('cart_code.cart_id', '=', cartId)
    .orderBy('cart_code.applied_at')
    .orderBy('promo_code.code')
    .execute();
}

/**
 * Prices the cart's tickets under its codes: each live ticket gets the best discount of the mods that cover it
 * (adjusted_value = price before codes - discount), or its price before codes back when none does. Runs in the
 * transaction that changes the codes or the tickets, under the cart's row lock.
 */
export async function repriceCart(trx: Trx, cartId: string): Promise<void> {
  const mods = await cartMods(trx, cartId);
  const tickets = await trx
    .selectFrom('ticket')
    .select(['id', 'ticket_type_id', 'handler', 'adjusted_value', 'cartmod_amount', 'cart_mod_id'])
    .where('cart_id', '=', cartId)
    .where('state', '=', 'in_cart')
    .execute();
  for (const t of tickets) {
    const base = t.adjusted_value + t.cartmod_amount;
    const best = bestDiscount(mods, t, base);
    const amount = best?.amount ?? 0;
    const modId = best?.mod.id ?? null;
    if (amount === t.cartmod_amount && modId === t.cart_mod_id) continue;
    await trx
      .updateTable('ticket')
      .set({ adjusted_value: base - amount, cartmod_amount: amount, cart_mod_id: modId })
      .where('id', '=', t.id)
      .execute();
  }
}

const CONTEXT = 'apply_code';
export const promoErrors = {
  invalid: (code: string, problem: string) =>
    new DomainError('validation_failed', `"${code}" is not a valid promo code.`, CONTEXT, { field: 'codes', code, problem }),
  notFound: (code: string, reason?: string) =>
    new DomainError('code_not_found', `"${code}" is not a valid promo code.`, CONTEXT, { code, ...(reason ? { reason } : {}) }),
  duplicate: (code: string) => new DomainError('duplicate_code', `"${code}" is already applied.`, CONTEXT, { code }),
  noBenefit: (code: string) => new DomainError('no_code_benefit', `"${code}" does not apply to anything in your cart.`, CONTEXT, { code }),
  exhausted: (code: string) => new DomainError('code_exhausted', `"${code}" has been used up.`, CONTEXT, { code }),
};

export interface ApplyArgs {
  cartId: string;
  sellerId: string;
  now: Date;
  codes: string[];
  /** codes to take off, lower case */
  removals: string[];
  requireBenefit: boolean;
  ignore: boolean;
}

/**
 * Takes codes off and puts codes on a cart whose row the caller has locked, then prices its tickets again: the one
 * body of apply_code and of the cart update's apply_code forms. A refusal throws (the caller's transaction rolls
 * back) unless `ignore` skips the code that fails.
 */
export async function applyInTrx(trx: Trx, args: ApplyArgs): Promise<void> {
  const { cartId, now, codes, removals, requireBenefit, ignore } = args;
  const errors = promoErrors;
  const onCart = await trx
    .selectFrom('cart_code')
    .innerJoin('promo_code', 'promo_code.id', 'cart_code.promo_code_id')
    .select(['promo_code.id', 'promo_code.code', 'cart_code.use_held'])
    .where('cart_code.cart_id', '=', cartId)
    .execute();
  if (removals.length > 0) {
    const gone = onCart.filter((c) => removals.includes(c.code.toLowerCase()));
    if (gone.length > 0) {
      await trx
        .deleteFrom('cart_code')
        .where('cart_id', '=', cartId)
        .where(
          'promo_code_id',
          'in',
          gone.map((g) => g.id),
        )
        .execute();
      await giveBack(
        trx,
        gone.filter((g) => g.use_held).map((g) => g.id),
      );
    }
  }
  const present = new Set(onCart.filter((c) => !removals.includes(c.code.toLowerCase())).map((c) => c.code.toLowerCase()));
  const tickets = await trx
    .selectFrom('ticket')
    .select(['ticket_type_id', 'handler'])
    .where('cart_id', '=', cartId)
    .where('state', '=', 'in_cart')
    .execute();
  for (const code of codes) {
    const refuse = (err: DomainError) => {
      if (!ignore) throw err;
    };
    const problem = promoCodeProblem(code);
    if (problem) {
      refuse(errors.invalid(code, problem));
      continue;
    }
    if (present.has(code.toLowerCase())) {
      refuse(errors.duplicate(code));
      continue;
    }
    const promo = await trx
      .selectFrom('promo_code')
      .innerJoin('cart_mod', 'cart_mod.id', 'promo_code.cart_mod_id')
      .select(['promo_code.id', 'promo_code.code', 'promo_code.valid_from', 'promo_code.valid_to', 'cart_mod.ticket_type_ids'])
      .where('promo_code.seller_id', '=', args.sellerId)
      .where((eb) => eb(eb.fn('lower', ['promo_code.code']), '=', code.toLowerCase()))
      .executeTakeFirst();
    if (!promo) {
      refuse(errors.notFound(code));
      continue;
    }
    if ((promo.valid_from && now < new Date(promo.valid_from)) || (promo.valid_to && now > new Date(promo.valid_to))) {
      refuse(errors.notFound(code, promo.valid_to && now > new Date(promo.valid_to) ? 'ended' : 'not_started'));
      continue;
    }
    if (requireBenefit && !tickets.some((t) => modCovers({ ticket_type_ids: promo.ticket_type_ids ?? [] }, t))) {
      refuse(errors.noBenefit(code));
      continue;
    }
    if (!(await takeUse(trx, promo.id))) {
      refuse(errors.exhausted(code));
      continue;
    }
    await trx.insertInto('cart_code').values({ cart_id: cartId, promo_code_id: promo.id, applied_at: now }).execute();
    present.add(code.toLowerCase());
  }
  await repriceCart(trx, cartId);
}

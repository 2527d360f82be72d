import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import { loadOwnedCart, type Caller } from './access';
import { cartErrors } from './errors';
import { lockPending } from './modify';
import { applyInTrx, promoErrors as errors } from './promo';
import { returnOverpayment } from '../checkout/gift-card';

export interface ApplyCodeBody {
  codes?: string[];
  /** codes to take off the cart (their uses are given back) */
  remove_codes?: string[];
  /** refuse a code that discounts nothing in the cart (no_code_benefit); default true */
  require_benefit?: boolean;
  /** leave out the codes that fail instead of refusing the whole request (the default code, preloaded codes) */
  ignore_errors?: boolean;
}

/**
 * POST cart/{id}/apply_code and my/cart/{id}/apply_code: puts codes on a pending cart (and takes codes off), in one
 * transaction under the cart's row lock: each code's use is taken with the guarded update (promo.ts) and the tickets
 * are priced again. A refusal leaves the cart as it was, unless `ignore_errors` asked to skip the codes that fail.
 */
export async function applyCodes(deps: Deps, cartId: string, caller: Caller, body: ApplyCodeBody): Promise<void> {
  const owned = await loadOwnedCart(deps.db, cartId, caller);
  // An edit cart's prices carry what the order paid (issue 17): no codes on it.
  if (owned.edit_order_id) throw cartErrors.notPending(cartId, 'edit');
  const requireBenefit = body.require_benefit !== false;
  const ignore = body.ignore_errors === true;
  const codes = (body.codes ?? []).map((c) => c.trim());
  const removals = (body.remove_codes ?? []).map((c) => c.trim().toLowerCase());
  const now = deps.now();

  const expired = await deps.db.transaction().execute(async (trx) => {
    const { expired } = await lockPending(trx, cartId, now);
    if (expired) return true;
    await applyInTrx(trx, { cartId, sellerId: owned.seller_id, now, codes, removals, requireBenefit, ignore });
    // A cheaper cart never keeps gift-card money beyond what it owes (card payments refuse the code instead).
    await returnOverpayment(trx, cartId, now);
    await trx.updateTable('cart').set({ updated_at: now }).where('id', '=', cartId).execute();
    return false;
  });
  if (expired) throw cartErrors.expired(cartId);
}

/**
 * GET code/{code}: what a code gives, for the storefront to show before it is applied. `mode` lists what may be
 * looked up: `code` any code by its exact text, `advertise` only the codes the seller advertises.
 */
export async function lookupCode(deps: Deps, seller: Seller, code: string, mode: string | undefined) {
  const modes = new Set((mode ?? 'advertise,code').split(',').map((m) => m.trim()));
  const now = deps.now();
  const row = await deps.db
    .selectFrom('promo_code')
    .innerJoin('cart_mod', 'cart_mod.id', 'promo_code.cart_mod_id')
    .selectAll('cart_mod')
    .select([
      'promo_code.id as promo_code_id',
      'promo_code.code as code',
      'promo_code.advertise as advertise',
      'promo_code.max_usage as max_usage',
      'promo_code.used as used',
      'promo_code.valid_from as valid_from',
      'promo_code.valid_to as valid_to',
    ])
    .where('promo_code.seller_id', '=', seller.id)
    .where((eb) => eb(eb.fn('lower', ['promo_code.code']), '=', code.trim().toLowerCase()))
    .executeTakeFirst();
  const visible = row && (modes.has('code') || (modes.has('advertise') && row.advertise));
  const current = row && !(row.valid_from && now < new Date(row.valid_from)) && !(row.valid_to && now > new Date(row.valid_to));
  if (!row || !visible || !current) throw errors.notFound(code.trim());
  const typeIds: string[] = row.ticket_type_ids ?? [];
  const types = typeIds.length ? await deps.db.selectFrom('ticket_type').selectAll().where('id', 'in', typeIds).execute() : [];
  return { row, types, exhausted: row.max_usage >= 0 && row.used >= row.max_usage };
}

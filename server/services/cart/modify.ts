import { sql, type Transaction } from 'kysely';
import type { Deps } from '../../deps';
import type { Database, Seller } from '../../db/types';
import { DomainError } from '../errors';
import { DEFAULT_HOLD_SECONDS, EXTENSION_SECONDS, PER_TYPE_CAP, groupQuantityError } from '../../../src/domain/cart-rules';
import { loadGroups, needsOf, releaseCapacity, takeCapacity } from '../inventory';
import { publicIdentityId, loadOwnedCart, type Caller } from './access';
import { cartErrors } from './errors';
import { expireCarts } from './expiry';
import { cardPaid, cartHasPayments, returnGiftCardPayments, returnOverpayment } from '../checkout/gift-card';
import { applyInTrx, releaseUses, repriceCart } from './promo';
import { checkHolds, countNewCart, holdLimits, lockHolder, ownPendingCart } from './holds';
import { prepareAdds, type AddLine } from './reserve';
import { seatTakenError } from '../seats';
import { citypassTakenError } from '../citypass';
import { validateSurvey } from './survey';
import { checkConflicts } from './conflicts';
import { checkAnchors } from './anchors';
import { cartVisitRows } from './visits';
import { checkLevelLines, checkMemberBenefits, prepareLevelLines, prepareMemberTickets, type MemberClaim } from '../membership/reserve';

type Trx = Transaction<Database>;

/** POST cart/modify and cart/{id}/modify, in the list form or the "cart update body forms" of spec section 7. */
export interface ModifyBody {
  add?: AddLine[];
  remove?: string[] | { tickets: string[] };
  campaign?: string | null;
  channel_id?: string;
  additional_info?: Record<string, unknown> & { data?: Record<string, unknown> };
  create?: { channel_id?: string; campaign?: string | null };
  reserve?: { tickets?: AddLine[]; additional_info?: { data?: Record<string, unknown> } };
  apply_code_before?: CodeForm;
  apply_code_default?: CodeForm;
  apply_code?: CodeForm;
}
interface CodeForm {
  codes: string[];
  ignore_errors?: boolean;
  require_benefit?: boolean;
}

/** A cart update's code form, applied in its transaction; each form has its own defaults (spec section 7). */
async function applyForm(
  trx: Trx,
  at: { cartId: string; sellerId: string; now: Date },
  form: CodeForm | undefined,
  defaults: { requireBenefit: boolean; ignore: boolean },
) {
  if (!form || form.codes.length === 0) return;
  await applyInTrx(trx, {
    ...at,
    codes: form.codes.map((c) => c.trim()),
    removals: [],
    requireBenefit: form.require_benefit ?? defaults.requireBenefit,
    ignore: form.ignore_errors ?? defaults.ignore,
  });
}

export const holdSeconds = (seller: Seller) => Number(seller.config?.cart?.hold_seconds ?? DEFAULT_HOLD_SECONDS);

function normalise(body: ModifyBody) {
  const add = [...(body.add ?? []), ...(body.reserve?.tickets ?? [])];
  const remove = Array.isArray(body.remove) ? body.remove : (body.remove?.tickets ?? []);
  const info = body.reserve?.additional_info?.data ?? body.additional_info?.data ?? body.additional_info ?? {};
  const { data: _data, ...surveys } = info as Record<string, unknown>;
  return {
    add,
    remove: [...new Set(remove)],
    surveys: surveys as Record<string, unknown>,
    campaign: body.create?.campaign ?? body.campaign,
    channel: body.create?.channel_id ?? body.channel_id,
  };
}

/**
 * Locks a cart for a change. Its state must be pending and its hold current; a pending cart whose time is
 * up is released here (once: the row is locked) and reported as expired after the release commits.
 */
export async function lockPending(trx: Trx, cartId: string, now: Date) {
  const cart = await trx.selectFrom('cart').selectAll().where('id', '=', cartId).forUpdate().executeTakeFirstOrThrow();
  if (cart.state === 'completed') {
    const order = await trx.selectFrom('ticket_order').select(['id', 'order_number']).where('cart_id', '=', cartId).executeTakeFirst();
    throw cartErrors.booked(cartId, order);
  }
  if (cart.state === 'checking_out') throw cartErrors.checkingOut(cartId);
  if (cart.state === 'expired') throw cartErrors.expired(cartId);
  if (cart.state !== 'pending') throw cartErrors.notPending(cartId, cart.state);
  if (cart.expires_at && new Date(cart.expires_at).getTime() <= now.getTime()) {
    await expireCarts(trx, now, { cartIds: [cartId] });
    return { cart, expired: true as const };
  }
  return { cart, expired: false as const };
}

/** Quantity rules on what the cart holds after the change, for every (group, session) and type it touched. */
async function checkQuantities(trx: Trx, cartId: string, touched: Array<{ ticket_group_id: string; event_session_id: string | null }>) {
  if (touched.length === 0) return;
  const groupIds = [...new Set(touched.map((t) => t.ticket_group_id))];
  const counts = await trx
    .selectFrom('ticket')
    // A membership level is one primary line and a line per further member: the level counts once.
    .select([
      'ticket_group_id',
      'event_session_id',
      'ticket_type_id',
      sql<number>`count(*) filter (where handler <> 'membership' or (handler_data->>'primary')::boolean)::int`.as('n'),
    ])
    .where('cart_id', '=', cartId)
    .where('state', '=', 'in_cart')
    .where('ticket_group_id', 'in', groupIds)
    .groupBy(['ticket_group_id', 'event_session_id', 'ticket_type_id'])
    .execute();
  const groups = await loadGroups(trx, groupIds);
  const perGroup = new Map<string, number>();
  for (const c of counts) {
    if (c.n > PER_TYPE_CAP) {
      throw new DomainError('max_tickets_per_order_exceeded', `At most ${PER_TYPE_CAP} tickets of one type per order.`, 'reserve', {
        ticket_type_id: c.ticket_type_id,
        max: PER_TYPE_CAP,
      });
    }
    const key = `${c.ticket_group_id}/${c.event_session_id ?? ''}`;
    perGroup.set(key, (perGroup.get(key) ?? 0) + c.n);
  }
  for (const t of touched) {
    const g = groups.get(t.ticket_group_id)!;
    const n = perGroup.get(`${t.ticket_group_id}/${t.event_session_id ?? ''}`) ?? 0;
    const code = groupQuantityError(n, g.min_tickets_per_order, g.max_tickets_per_order);
    if (code === 'max_tickets_per_order_exceeded') {
      throw new DomainError(code, `You can buy at most ${g.max_tickets_per_order} ${g.name} tickets per order.`, 'reserve', {
        ticket_group_id: g.id,
        max: g.max_tickets_per_order,
        count: n,
      });
    }
    if (code === 'min_tickets_per_order_not_met') {
      throw new DomainError(code, `You need at least ${g.min_tickets_per_order} ${g.name} tickets per order.`, 'reserve', {
        ticket_group_id: g.id,
        min: g.min_tickets_per_order,
        count: n,
      });
    }
  }
}

/** Creates the cart when `cartId` is absent, then applies removals, additions and survey answers atomically. */
export async function modifyCart(deps: Deps, args: { seller: Seller; caller: Caller; cartId?: string; body: ModifyBody }): Promise<string> {
  const { seller, caller, body } = args;
  const now = deps.now();
  const change = normalise(body);
  if (args.cartId) {
    const owned = await loadOwnedCart(deps.db, args.cartId, caller);
    // An edit cart (issue 17) changes only through its order's reschedule: its tickets replace booked ones.
    if (owned.edit_order_id) throw cartErrors.notPending(args.cartId, 'edit');
  }
  const identityId = caller.identityId ?? (await publicIdentityId(deps.db, seller));
  const limits = holdLimits(seller);
  // A visitor with a pending cart goes on filling it; only a new cart counts against the address's allowance.
  if (!args.cartId && !(await ownPendingCart(deps.db, seller, caller, false))) await countNewCart(deps, limits, caller);

  let outcome: { id: string; expired: boolean };
  try {
    outcome = await deps.db.transaction().execute(async (trx) => {
      // Advisory locks before any cart row lock, always in this order (holds.ts).
      if (change.add.length > 0 || !args.cartId) await lockHolder(trx, seller, caller, limits);
      let cartId = args.cartId;
      let info: Record<string, unknown> = {};
      if (!cartId) {
        // One pending cart per visitor (issue 20, finding 6): a cart/modify without an id fills the one it has.
        const own = await ownPendingCart(trx, seller, caller);
        if (own && own.expires_at && new Date(own.expires_at).getTime() <= now.getTime()) {
          await expireCarts(trx, now, { cartIds: [own.id] });
        } else if (own) {
          cartId = own.id;
          info = { ...(own.additional_info ?? {}) };
        }
      } else {
        const locked = await lockPending(trx, cartId, now);
        if (locked.expired) return { id: cartId, expired: true };
        info = { ...(locked.cart.additional_info ?? {}) };
      }
      if (!cartId) {
        const created = await trx
          .insertInto('cart')
          .values({
            seller_id: seller.id,
            identity_id: identityId,
            owner_token_hash: caller.identityId ? null : caller.tokenHash,
            address_hash: caller.addressHash ?? null,
            channel_id: change.channel ?? 'web',
            campaign: change.campaign ?? null,
            additional_info: '{}',
            expires_at: new Date(now.getTime() + holdSeconds(seller) * 1000),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        cartId = created.id;
      }

      const at = { cartId, sellerId: seller.id, now };
      await applyForm(trx, at, body.apply_code_before, { requireBenefit: false, ignore: false });
      const touched: Array<{ ticket_group_id: string; event_session_id: string | null }> = [];
      let prepared: Awaited<ReturnType<typeof prepareAdds>> | null = null;
      let memberClaim: MemberClaim | null = null;
      if (change.remove.length > 0) {
        const removed = await trx
          .deleteFrom('ticket')
          .where('cart_id', '=', cartId)
          .where('id', 'in', change.remove)
          .where('state', '=', 'in_cart')
          .returning(['id', 'event_session_id', 'ticket_group_id'])
          .execute();
        if (removed.length !== change.remove.length) {
          throw cartErrors.ticketNotFound(change.remove.filter((id) => !removed.some((r) => r.id === id)));
        }
        await releaseCapacity(trx, needsOf(removed));
        touched.push(...removed);
      }
      if (change.add.length > 0) {
        prepared = await prepareAdds(trx, { now, sellerId: seller.id, cartId, identityId, lines: change.add });
        // Memberships (issue 12): levels priced once and checked for renewal; member tickets priced and tagged, under
        // the membership's row lock (taken after the cart's, before any capacity row).
        const member = { now, seller, memberIdentityId: caller.identityId ?? null, rows: prepared.rows };
        await prepareLevelLines(trx, { ...member, partyRoles: change.add.map((l) => l.party_role) });
        memberClaim = await prepareMemberTickets(trx, { ...member, groups: prepared.groups });
        const sessionless = [...new Set(prepared.rows.filter((r) => !r.event_session_id).map((r) => r.ticket_group_id))];
        await expireCarts(trx, now, { sessionIds: prepared.sessionIds, groupIds: sessionless });
        await trx.insertInto('ticket').values(prepared.rows).execute();
        touched.push(...prepared.rows.map((r) => ({ ticket_group_id: r.ticket_group_id, event_session_id: r.event_session_id ?? null })));
      }
      await checkQuantities(trx, cartId, touched);
      if (touched.length > 0) {
        // What the cart holds now: no overlapping visits, and every add-on with the anchor it follows (issue 16).
        const held = await cartVisitRows(trx, seller, cartId);
        if (prepared) checkConflicts(seller, held, prepared.sessionIds);
        checkAnchors(seller, held);
      }
      await checkLevelLines(trx, cartId, [...new Set(touched.map((t) => t.ticket_group_id))]);
      await checkMemberBenefits(trx, memberClaim);
      if (prepared) await checkHolds(trx, { now, caller, limits, added: prepared.rows });
      // The cart's promo codes price what was added (and what stays) again.
      if (touched.length > 0) await repriceCart(trx, cartId);
      await applyForm(trx, at, body.apply_code_default, { requireBenefit: false, ignore: true });
      await applyForm(trx, at, body.apply_code, { requireBenefit: true, ignore: false });
      // Fewer tickets or a new code: gift cards that paid part of the cart never pay more than it now owes.
      if (touched.length > 0 || body.apply_code || body.apply_code_default || body.apply_code_before)
        await returnOverpayment(trx, cartId, now);

      const surveyGroups = Object.keys(change.surveys);
      if (surveyGroups.length > 0) {
        const specs = await trx
          .selectFrom('ticket_group')
          .select(['id', 'additional_info_spec'])
          .where('id', 'in', surveyGroups)
          .where('seller_id', '=', seller.id)
          .execute();
        for (const groupId of surveyGroups) {
          const spec = specs.find((s) => s.id === groupId);
          if (!spec)
            throw new DomainError('additional_info_validation_failed', 'Unknown ticket group in the answers.', 'reserve', {
              ticket_group_id: groupId,
            });
          info[groupId] = validateSurvey(groupId, spec.additional_info_spec, change.surveys[groupId]);
        }
      }

      const update: Record<string, unknown> = { updated_at: now, additional_info: JSON.stringify(info) };
      if (change.campaign !== undefined && cartId !== undefined) update.campaign = change.campaign;
      // The hold runs from the cart's creation (plus its one extension): emptying and refilling a cart does not
      // start it again, so a hold cannot be kept for ever (issue 20, finding 6).
      await trx.updateTable('cart').set(update).where('id', '=', cartId).execute();
      // Capacity last: in an on-sale every buyer waits for the same counter rows, which stay locked from this
      // UPDATE to the commit, so nothing else may run in between. A refusal rolls the whole change back.
      if (prepared) await takeCapacity(trx, prepared.needs, prepared.groups);
      return { id: cartId, expired: false };
    });
  } catch (err) {
    // Nothing of the change stayed (one transaction): the refusal names the seats or CityPASS codes someone else holds now.
    throw (
      (await seatTakenError(deps.db, err, change.add)) ??
      (await citypassTakenError(
        deps.db,
        err,
        seller.id,
        change.add.map((l) => l.citypass_code),
      )) ??
      err
    );
  }
  if (outcome.expired) throw cartErrors.expired(outcome.id);
  return outcome.id;
}

/** DELETE cart/{id}: the cart is cancelled and its holds released; a booked cart cannot be deleted. */
export async function deleteCart(deps: Deps, cartId: string, caller: Caller): Promise<void> {
  await loadOwnedCart(deps.db, cartId, caller);
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    const cart = await trx.selectFrom('cart').selectAll().where('id', '=', cartId).forUpdate().executeTakeFirstOrThrow();
    if (cart.state === 'expired' || cart.state === 'cancelled') return;
    // A booked or checking-out cart is refused by the same checks as a change.
    if (cart.state !== 'pending') await lockPending(trx, cartId, now);
    await cancelCart(trx, cartId, now);
  });
}

/**
 * Cancels a locked cart: its tickets go, their places, its codes' uses and its gift cards' payments come back (DELETE
 * cart, and an order's edit given up, order-edit.ts).
 */
export async function cancelCart(trx: Trx, cartId: string, now: Date): Promise<void> {
  // A payment plan's card payments are not given back by emptying the cart: the box office refunds them. (Here, not in
  // DELETE cart alone, so an order's edit given up can never drop a card's part payment either.)
  if ((await cardPaid(trx, cartId)) > 0) throw cartHasPayments(cartId);
  await trx.updateTable('cart').set({ state: 'cancelled', updated_at: now }).where('id', '=', cartId).execute();
  const released = await trx
    .deleteFrom('ticket')
    .where('cart_id', '=', cartId)
    .where('state', '=', 'in_cart')
    .returning(['event_session_id', 'ticket_group_id'])
    .execute();
  await releaseCapacity(trx, needsOf(released));
  await releaseUses(trx, [cartId]);
  await returnGiftCardPayments(trx, [cartId], now);
}

/** PATCH my/cart/{id}: one extension of 2 minutes per cart, asked for before the hold runs out. */
export async function extendCart(deps: Deps, cartId: string, caller: Caller): Promise<void> {
  await loadOwnedCart(deps.db, cartId, caller);
  const now = deps.now();
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const { cart, expired } = await lockPending(trx, cartId, now);
    if (expired) return 'expired';
    if (cart.extended_at) throw cartErrors.extensionUsed(cartId);
    // A held cart (a payment plan) does not run out: there is nothing to extend.
    if (!cart.expires_at) return 'extended';
    const base = new Date(cart.expires_at);
    await trx
      .updateTable('cart')
      .set({ expires_at: new Date(base.getTime() + EXTENSION_SECONDS * 1000), extended_at: now, updated_at: now })
      .where('id', '=', cartId)
      .execute();
    return 'extended';
  });
  if (outcome === 'expired') throw cartErrors.expired(cartId);
}

import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Deps } from '../deps';
import type { Cart, Database, EventSession, TicketOrder, TicketTable } from '../db/types';
import type { EditRow } from '../../src/contract/self-edit';
import { money } from '../../src/domain/money';
import { isFlexiblePrice, outsideFees, ticketPrice } from '../../src/domain/cart-rules';
import { rescheduleIncrease, rescheduleVerdict, type SelfEditRules } from '../../src/domain/self-edit';
import { expiresIn } from '../../src/domain/cart-rules';
import { DomainError, invalid, notFound } from './errors';
import { isCartOwner, type Caller } from './cart/access';
import { cartErrors } from './cart/errors';
import { expireCarts } from './cart/expiry';
import { cartTotals } from './cart/totals';
import { cancelCart, holdSeconds } from './cart/modify';
import { assertSellable, hasActiveMembership, loadGroups, needsOf, releaseCapacity, takeCapacity } from './inventory';
import { notSelfEditable, ticketsOf, type OrderTicket } from './self-edit-rules';

type Trx = Transaction<Database>;

/**
 * Edit order and reschedule (issue 17; spec sections 2, 4, 8). A reschedule puts, for each moved ticket, a ticket in
 * the new session into the order's edit cart (a cart of its own: `edit_order_id`, its own hold, one open per order),
 * naming the booked ticket it replaces. Its place in the new session is taken then, under the same guarded update as
 * any reservation, so edits never oversell; the old places stay the order's until the edit is booked. Booking the
 * edit (its checkout: free, or the difference paid) unbooks the replaced tickets, gives their places back and books the
 * new ones into the order, in one transaction (bookEdit). Discarding it (DELETE cart/{id}) or its hold running out
 * gives the new places back and leaves the order as it was.
 */

/** Serialises the changes of one order (reschedules, cancellations): a transaction-scoped advisory lock. */
export async function lockOrderChanges(trx: Trx, orderId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`order-changes:${orderId}`}, 0))`.execute(trx);
}

/** The order's open edit (pending or being paid), if any; with `lock`, its row locked. */
export function openEdit(db: Kysely<Database>, orderId: string, lock = false) {
  return db
    .selectFrom('cart')
    .selectAll()
    .where('edit_order_id', '=', orderId)
    .where('state', 'in', ['pending', 'checking_out'])
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

/** Gives up an edit (its cart locked): its new places back, its gift-card parts back to the cards, the order as it was. */
export const discardEdit = cancelCart;

/** This browser's unsaved changes to the order (spec section 4: the edit cart while it has an expiry), or null. */
export async function editOf(deps: Deps, orderId: string, caller: Caller): Promise<EditRow | null> {
  const now = deps.now();
  const cart = await openEdit(deps.db, orderId);
  if (!cart || !isCartOwner(cart, caller)) return null;
  if (cart.state === 'pending' && cart.expires_at && new Date(cart.expires_at).getTime() <= now.getTime()) return null;
  const moves = await deps.db
    .selectFrom('ticket')
    .innerJoin('event_session', 'event_session.id', 'ticket.event_session_id')
    .select(['ticket.id', 'ticket.replaces_ticket_id', 'ticket.event_session_id', 'event_session.start_datetime'])
    .where('ticket.cart_id', '=', cart.id)
    .where('ticket.state', '=', 'in_cart')
    .where('ticket.replaces_ticket_id', 'is not', null)
    .orderBy('ticket.created_at')
    .orderBy('ticket.id')
    .execute();
  const { totals } = await cartTotals(deps.db, cart.id);
  return {
    cart_id: cart.id,
    expires_at: cart.expires_at ? new Date(cart.expires_at).toISOString() : null,
    expires_in: expiresIn(cart.expires_at ? new Date(cart.expires_at) : null, now),
    outstanding: money(totals.total_outstanding),
    moves: moves.map((m) => ({
      ticket_id: m.replaces_ticket_id!,
      to_ticket_id: m.id,
      to_event_session_id: m.event_session_id!,
      to_start_datetime: new Date(m.start_datetime).toISOString(),
    })),
  };
}

const stateIncorrect = (ticketId: string) =>
  new DomainError('ticket_state_incorrect', 'This ticket can no longer be changed.', 'cart_remove_tickets', { ticket_id: ticketId });
const tooOld = (ticketId: string) =>
  new DomainError('tickets_too_old', 'These tickets can no longer be changed online.', 'cart_remove_tickets', { ticket_id: ticketId });

/** Refuses tickets a reschedule may not move, with the spec's codes (section 8: on cart_remove_tickets). */
function checkMovable(order: TicketOrder, rules: SelfEditRules, tickets: OrderTicket[], ids: string[], now: Date): OrderTicket[] {
  const byId = new Map(tickets.map((t) => [t.id, t]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing)
    throw new DomainError('ticket_not_found', 'No valid tickets found on this order.', 'cart_remove_tickets', { ticket_id: missing });
  const verdict = rescheduleVerdict(rules, tickets, now);
  for (const id of ids) {
    const reason = verdict.refusals.get(id);
    if (reason === 'ticket_state_incorrect') throw stateIncorrect(id);
    if (reason === 'tickets_too_old') throw tooOld(id);
    if (reason) throw notSelfEditable(order.id, reason);
  }
  const chosen = ids.map((id) => byId.get(id)!);
  if (new Set(chosen.map((t) => t.sessionId)).size !== 1)
    throw invalid('tickets', 'Choose the tickets of one visit to move together.', 'reserve');
  return chosen;
}

/**
 * POST ticket_order/{id}/reschedule: moves the chosen tickets (of one visit) to another session of the same event in
 * the order's edit cart, made for this browser when it has none (an open edit of another browser is replaced: both
 * may act on the order, the latest change wins). One transaction: the tickets' earlier moves in this edit give their
 * new places back, and the new session's places are taken under the capacity guard (event_session_sold_out).
 */
export async function rescheduleInEdit(
  deps: Deps,
  args: { order: TicketOrder; rules: SelfEditRules; caller: Caller; ticketIds: string[]; sessionId: string },
): Promise<void> {
  const { order, rules, caller } = args;
  const now = deps.now();
  const seller = await deps.db.selectFrom('seller').selectAll().where('id', '=', order.seller_id).executeTakeFirstOrThrow();
  const expired = await deps.db.transaction().execute(async (trx) => {
    await lockOrderChanges(trx, order.id);
    let edit: Cart | undefined = await openEdit(trx, order.id, true);
    if (edit?.state === 'checking_out') throw cartErrors.checkingOut(edit.id);
    if (edit && !isCartOwner(edit, caller)) {
      await discardEdit(trx, edit.id, now);
      edit = undefined;
    } else if (edit?.expires_at && new Date(edit.expires_at).getTime() <= now.getTime()) {
      // Spec section 8: cart_expired on reserve, and the visitor starts again (released once the refusal is sent).
      await expireCarts(trx, now, { cartIds: [edit.id] });
      return edit.id;
    }
    if (edit) {
      const paid = await trx
        .selectFrom('payment')
        .select('id')
        .where('cart_id', '=', edit.id)
        .where('status', '=', 'succeeded')
        .executeTakeFirst();
      if (paid) throw new DomainError('cart_has_payments', 'Part of these changes is paid already.', 'reserve', { cart_id: edit.id });
    }

    // The tickets, locked against a cancellation meanwhile, then read with their catalogue.
    await trx
      .selectFrom('ticket')
      .select('id')
      .where('ticket_order_id', '=', order.id)
      .where('id', 'in', args.ticketIds)
      .forUpdate()
      .execute();
    const moving = checkMovable(order, rules, await ticketsOf(trx, order.id), args.ticketIds, now);
    const target = await trx
      .selectFrom('event_session')
      .selectAll()
      .where('id', '=', args.sessionId)
      .where('seller_id', '=', order.seller_id)
      .executeTakeFirst();
    if (!target) throw notFound('event_session', args.sessionId);
    if (target.event_template_id !== moving[0].eventId)
      throw invalid('event_session_id', 'Choose another time of the same event.', 'reserve');
    if (target.id === moving[0].sessionId) throw invalid('event_session_id', 'Choose another time than the one booked.', 'reserve');

    if (!edit) {
      edit = await trx
        .insertInto('cart')
        .values({
          seller_id: order.seller_id,
          identity_id: order.identity_id,
          owner_token_hash: caller.tokenHash,
          address_hash: caller.addressHash ?? null,
          channel_id: 'web',
          additional_info: '{}',
          edit_order_id: order.id,
          expires_at: new Date(now.getTime() + holdSeconds(seller) * 1000),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    // Moved before in this edit: that move's places go back first.
    const earlier = await trx
      .deleteFrom('ticket')
      .where('cart_id', '=', edit.id)
      .where('state', '=', 'in_cart')
      .where('replaces_ticket_id', 'in', args.ticketIds)
      .returning(['event_session_id', 'ticket_group_id'])
      .execute();
    await releaseCapacity(trx, needsOf(earlier));

    const rows = await newTickets(trx, { now, editCartId: edit.id, identityId: order.identity_id, moving, target });
    await expireCarts(trx, now, { sessionIds: [target.id] });
    await trx.insertInto('ticket').values(rows).execute();
    await trx.updateTable('cart').set({ updated_at: now }).where('id', '=', edit.id).execute();
    // Capacity last, as every reservation does: the counter rows stay locked from here to the commit.
    await takeCapacity(
      trx,
      needsOf(rows.map((r) => ({ event_session_id: r.event_session_id ?? null, ticket_group_id: r.ticket_group_id }))),
    );
    return null;
  });
  if (expired) throw cartErrors.expired(expired);
}

/**
 * The new tickets of a move: the same type and admit details in the new session, worth what was paid for the old one
 * plus the new time's price increase over the old time's (rescheduleIncrease; a cheaper time keeps the price paid).
 */
async function newTickets(
  trx: Trx,
  args: {
    now: Date;
    editCartId: string;
    identityId: string;
    moving: OrderTicket[];
    target: EventSession;
  },
): Promise<Insertable<TicketTable>[]> {
  const { moving, target } = args;
  const olds = await trx
    .selectFrom('ticket')
    .innerJoin('ticket_type', 'ticket_type.id', 'ticket.ticket_type_id')
    .leftJoin('event_session', 'event_session.id', 'ticket.event_session_id')
    .selectAll('ticket')
    .select(['event_session.price_increase as old_increase'])
    .where(
      'ticket.id',
      'in',
      moving.map((t) => t.id),
    )
    .execute();
  const types = new Map(
    (
      await trx
        .selectFrom('ticket_type')
        .selectAll()
        .where('id', 'in', [...new Set(olds.map((o) => o.ticket_type_id))])
        .execute()
    ).map((t) => [t.id, t]),
  );
  const groups = await loadGroups(
    trx,
    olds.map((o) => o.ticket_group_id),
  );
  const needsMembership = [...types.values()].some(
    (t) => t.member_only || groups.get(t.ticket_group_id)?.hidden_type === 'public_member_only',
  );
  const isMember = needsMembership && (await hasActiveMembership(trx, args.identityId, args.now));
  return olds.map((old) => {
    const type = types.get(old.ticket_type_id)!;
    const group = groups.get(old.ticket_group_id)!;
    assertSellable({ now: args.now, group, type, session: target, isMember });
    const face = ticketPrice(type, target.price_increase).face_value;
    const adjusted = old.adjusted_value + rescheduleIncrease(old.old_increase ?? 0, target.price_increase, isFlexiblePrice(type));
    const fees = outsideFees(adjusted, type.outside_fees);
    return {
      seller_id: old.seller_id,
      cart_id: args.editCartId,
      event_template_id: old.event_template_id,
      event_session_id: target.id,
      ticket_group_id: old.ticket_group_id,
      ticket_type_id: old.ticket_type_id,
      state: 'in_cart' as const,
      handler: old.handler,
      valid_from: target.start_datetime,
      valid_to: target.end_datetime,
      admit_name: old.admit_name,
      admit_email: old.admit_email,
      face_value: Math.max(face, adjusted),
      adjusted_value: adjusted,
      fees: fees.fixed + fees.percent,
      additional_info: JSON.stringify(old.additional_info ?? {}),
      handler_data: JSON.stringify({ fee_fixed: fees.fixed, fee_percent: fees.percent }),
      replaces_ticket_id: old.id,
    };
  });
}

/**
 * Books a paid (or free) edit, inside the checkout's booking transaction (bookAttempt, which holds the attempt's and
 * the cart's row locks): the replaced tickets are unbooked and give their places back, the new ones are booked into the
 * order with new scan codes, in one transaction. A replaced ticket no longer booked (cancelled meanwhile) books
 * nothing: the edit is discarded and its charge owed back.
 */
export async function bookEdit(
  trx: Trx,
  args: { now: Date; cart: Cart; attemptId: string; ref: string; tickets: Array<{ id: string; replaces_ticket_id: string | null }> },
): Promise<{ kind: 'booked'; orderId: string } | { kind: 'refund_owed' }> {
  const { now, cart } = args;
  const orderId = cart.edit_order_id!;
  const oldIds = args.tickets.map((t) => t.replaces_ticket_id).filter((id): id is string => !!id);
  const olds = oldIds.length
    ? await trx
        .selectFrom('ticket')
        .select(['id', 'state'])
        .where('id', 'in', oldIds)
        .where('ticket_order_id', '=', orderId)
        .forUpdate()
        .execute()
    : [];
  if (olds.length !== oldIds.length || olds.some((t) => t.state !== 'booked')) {
    await trx
      .updateTable('payment')
      .set({ status: 'refund_pending', gateway_ref: args.ref, updated_at: now })
      .where('id', '=', args.attemptId)
      .execute();
    await discardEdit(trx, cart.id, now);
    return { kind: 'refund_owed' };
  }
  const unbooked = oldIds.length
    ? await trx
        .updateTable('ticket')
        .set({ state: 'unbooked' })
        .where('id', 'in', oldIds)
        .where('state', '=', 'booked')
        .returning(['event_session_id', 'ticket_group_id', 'adjusted_value', 'fees'])
        .execute()
    : [];
  await releaseCapacity(trx, needsOf(unbooked));
  const booked = await trx
    .updateTable('ticket')
    .set({ state: 'booked', ticket_order_id: orderId, scan_code: sql`upper(replace(gen_random_uuid()::text, '-', ''))` })
    .where('cart_id', '=', cart.id)
    .where('state', '=', 'in_cart')
    .returning(['adjusted_value', 'fees'])
    .execute();
  if (booked.length !== args.tickets.length) throw new Error(`edit cart ${cart.id} changed during its checkout`);
  await trx.updateTable('cart').set({ state: 'completed', expires_at: null, updated_at: now }).where('id', '=', cart.id).execute();
  await trx
    .updateTable('payment')
    .set({ status: 'succeeded', ticket_order_id: orderId, gateway_ref: args.ref, occurred_on: now, updated_at: now })
    .where('id', '=', args.attemptId)
    .execute();
  // Gift cards that paid part of the edit paid for the order too (a later cancellation refunds them).
  await trx
    .updateTable('payment')
    .set({ ticket_order_id: orderId, updated_at: now })
    .where('cart_id', '=', cart.id)
    .where('status', '=', 'succeeded')
    .where('ticket_order_id', 'is', null)
    .execute();
  const sum = (rows: Array<{ adjusted_value: number; fees: number }>, k: 'adjusted_value' | 'fees') => rows.reduce((s, r) => s + r[k], 0);
  const before = sum(booked, 'adjusted_value') - sum(unbooked, 'adjusted_value');
  const fees = sum(booked, 'fees') - sum(unbooked, 'fees');
  await trx
    .updateTable('ticket_order')
    .set({
      total_before_fees: sql`total_before_fees + ${before}`,
      total_fees: sql`total_fees + ${fees}`,
      total_after_fees: sql`total_after_fees + ${before + fees}`,
    })
    .where('id', '=', orderId)
    .execute();
  return { kind: 'booked', orderId };
}

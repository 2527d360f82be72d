import type { Deps } from '../deps';
import type { TicketOrder } from '../db/types';
import type { SelfEditAnswer } from '../../src/contract/self-edit';
import type { OrderAnswer } from '../../src/contract/cart';
import { table } from '../../src/contract/tables';
import { cancelVerdict, selfEditRules, type SelfEditTicket } from '../../src/domain/self-edit';
import { DomainError, notFound } from './errors';
import { isCartOwner, isUuid, type Caller } from './cart/access';
import { holdsManageLink } from './manage-link';
import { needsOf, releaseCapacity } from './inventory';
import { orderTables } from './orders';
import { sendOrderMail, type OrderMailKind } from './order-mail';

/**
 * Order self-service (issue 17). Who may act on an order: the browser that bought it (the owner cookie of its cart),
 * the holder of the signed link of its e-mail, and the logged-in owner; anyone else gets the 404 of an order that does
 * not exist. Changing it needs the visitor logged out (spec section 6) and the seller's self_edit_rules.
 */

let unsafeSkipCancelGuardForTests = false;
/**
 * TEST ONLY. Cancels without the `state = 'booked'` predicate (and its early check), so the concurrency test has a
 * control that observes places given back more than once (DESIGN.md section 4). Not reachable from HTTP or config.
 */
export function setUnsafeSkipCancelGuardForTests(on: boolean): void {
  unsafeSkipCancelGuardForTests = on;
}

export async function loadManageableOrder(
  deps: Deps,
  orderId: string,
  caller: Caller,
  signature: string | undefined,
): Promise<TicketOrder> {
  if (!isUuid(orderId)) throw notFound('ticket_order', orderId);
  const order = await deps.db.selectFrom('ticket_order').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!order) throw notFound('ticket_order', orderId);
  if (await holdsManageLink(deps.db, order, signature)) return order;
  if (caller.identityId !== null && caller.identityId === order.identity_id) return order;
  const cart = await deps.db
    .selectFrom('cart')
    .select(['identity_id', 'owner_token_hash'])
    .where('id', '=', order.cart_id)
    .executeTakeFirst();
  if (cart?.owner_token_hash && isCartOwner(cart, caller)) return order;
  throw notFound('ticket_order', orderId);
}

const notSelfEditable = (orderId: string, reason: string) =>
  new DomainError('order_not_self_editable', 'You must contact us to cancel this order.', 'self_edit', {
    ticket_order_id: orderId,
    reason,
  });

async function rulesOf(deps: Deps, sellerId: string) {
  const seller = await deps.db.selectFrom('seller').select('config').where('id', '=', sellerId).executeTakeFirstOrThrow();
  return selfEditRules(seller.config?.self_edit_rules);
}

async function ticketsOf(deps: Deps, orderId: string): Promise<SelfEditTicket[]> {
  const rows = await deps.db
    .selectFrom('ticket')
    .innerJoin('event_template', 'event_template.id', 'ticket.event_template_id')
    .leftJoin('event_session', 'event_session.id', 'ticket.event_session_id')
    .select([
      'ticket.id',
      'ticket.state',
      'ticket.handler',
      'ticket.face_value',
      'ticket.adjusted_value',
      'event_template.category',
      'event_session.start_datetime',
    ])
    .where('ticket.ticket_order_id', '=', orderId)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    state: r.state,
    handler: r.handler,
    category: r.category,
    faceValue: r.face_value,
    adjustedValue: r.adjusted_value,
    start: r.start_datetime ? new Date(r.start_datetime) : null,
  }));
}

/** Refused while logged in (spec section 6: 'Please log-out to edit your tickets'). */
function refuseLoggedIn(caller: Caller, orderId: string) {
  if (caller.identityId !== null) throw notSelfEditable(orderId, 'logged_in');
}

async function view(deps: Deps, order: TicketOrder): Promise<SelfEditAnswer> {
  const rules = await rulesOf(deps, order.seller_id);
  const verdict = cancelVerdict(rules, await ticketsOf(deps, order.id), deps.now());
  const tables: OrderAnswer = await orderTables(deps, order, new Set());
  return {
    ...tables,
    self_edit: table([
      {
        ticket_order_id: order.id,
        mode: rules.mode,
        cancelable: verdict.cancelable,
        reason: verdict.reason,
        cancelable_ticket_ids: verdict.cancelableIds,
        horizon_hours: rules.horizonHours,
      },
    ]),
  };
}

/** GET ticket_order/{id}/self_edit */
export async function selfEditView(deps: Deps, orderId: string, caller: Caller, signature?: string): Promise<SelfEditAnswer> {
  const order = await loadManageableOrder(deps, orderId, caller, signature);
  refuseLoggedIn(caller, order.id);
  if ((await rulesOf(deps, order.seller_id)).mode === 'off') throw notSelfEditable(order.id, 'mode_off');
  return view(deps, order);
}

/**
 * POST ticket_order/{id}/cancel: cancels the chosen tickets when every one may be cancelled, and gives their places
 * back in the same transaction. The conditional update (`state = 'booked'`) takes each ticket once: of any number of
 * cancels at once, one gives the place back and the others are refused with ticket_state_incorrect.
 */
export async function cancelTickets(
  deps: Deps,
  orderId: string,
  caller: Caller,
  ticketIds: string[],
  signature?: string,
): Promise<SelfEditAnswer> {
  const order = await loadManageableOrder(deps, orderId, caller, signature);
  refuseLoggedIn(caller, order.id);
  const rules = await rulesOf(deps, order.seller_id);
  if (rules.mode === 'off') throw notSelfEditable(order.id, 'mode_off');
  const tickets = await ticketsOf(deps, order.id);
  const known = new Set(tickets.map((t) => t.id));
  const missing = ticketIds.find((id) => !known.has(id));
  if (missing) throw new DomainError('ticket_not_found', 'No valid tickets found on this order.', 'self_edit', { ticket_id: missing });
  const guard = !unsafeSkipCancelGuardForTests;
  const verdict = cancelVerdict(rules, tickets, deps.now());
  for (const id of ticketIds) {
    const reason = verdict.refusals.get(id);
    if (!reason || (!guard && reason === 'ticket_state_incorrect')) continue;
    if (reason === 'ticket_state_incorrect')
      throw new DomainError('ticket_state_incorrect', 'This ticket can no longer be changed.', 'self_edit', { ticket_id: id });
    if (reason === 'tickets_too_old')
      throw new DomainError('tickets_too_old', 'These tickets can no longer be changed online.', 'self_edit', { ticket_id: id });
    throw notSelfEditable(order.id, reason);
  }

  await deps.db.transaction().execute(async (trx) => {
    const cancelled = await trx
      .updateTable('ticket')
      .set({ state: 'cancelled' })
      .where('ticket_order_id', '=', order.id)
      .where('id', 'in', ticketIds)
      .$if(guard, (q) => q.where('state', '=', 'booked'))
      .returning(['event_session_id', 'ticket_group_id'])
      .execute();
    if (cancelled.length !== ticketIds.length)
      throw new DomainError('ticket_state_incorrect', 'This ticket can no longer be changed.', 'self_edit', { ticket_order_id: order.id });
    await releaseCapacity(trx, needsOf(cancelled));
  });
  await sendOrderMail(deps, order.id, 'order_cancel').catch(() => undefined);
  return view(deps, order);
}

/** POST ticket_order/{id}/email: the order's mail again (also to the logged-in owner). */
export async function emailOrder(
  deps: Deps,
  orderId: string,
  caller: Caller,
  logContext: Exclude<OrderMailKind, 'order_tickets'> | undefined,
  signature?: string,
): Promise<Pick<OrderAnswer, 'ticket_order'>> {
  const order = await loadManageableOrder(deps, orderId, caller, signature);
  await sendOrderMail(deps, order.id, logContext ?? 'order_tickets');
  const { ticket_order } = await orderTables(deps, order, new Set(['ticket_order']));
  return { ticket_order };
}

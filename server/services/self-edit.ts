import type { Deps } from '../deps';
import type { TicketOrder } from '../db/types';
import type { SelfEditAnswer } from '../../src/contract/self-edit';
import type { OrderAnswer } from '../../src/contract/cart';
import { table } from '../../src/contract/tables';
import { money } from '../../src/domain/money';
import { cancelVerdict, paidValue, rescheduleVerdict } from '../../src/domain/self-edit';
import { DomainError } from './errors';
import type { Caller } from './cart/access';
import { cartErrors } from './cart/errors';
import { needsOf, releaseCapacity } from './inventory';
import { orderTables } from './orders';
import { sendOrderMail, type OrderMailKind } from './order-mail';
import { loadManageableOrder, notSelfEditable, refuseLoggedIn, refuseLoggedInStranger, rulesOf, ticketsOf } from './self-edit-rules';
import { discardEdit, editOf, lockOrderChanges, openEdit, rescheduleInEdit } from './order-edit';
import { owePaidBack, payOutRefunds, refundableOf } from './refunds';

export { loadManageableOrder };

/**
 * Order self-service (issue 17). Who may act on an order: the browser that bought it (the owner cookie of its cart),
 * the holder of the signed link of its e-mail, and the logged-in owner; anyone else gets the 404 of an order that does
 * not exist. Editing needs the visitor logged out (spec section 6), and everything the seller's self_edit_rules.
 */

let unsafeSkipCancelGuardForTests = false;
/**
 * TEST ONLY. Cancels without the `state = 'booked'` predicate (and its early check), so the concurrency tests have a
 * control that observes places given back, and money refunded, more than once (DESIGN.md section 4). Not reachable
 * from HTTP or config.
 */
export function setUnsafeSkipCancelGuardForTests(on: boolean): void {
  unsafeSkipCancelGuardForTests = on;
}

async function view(deps: Deps, order: TicketOrder, caller: Caller): Promise<SelfEditAnswer> {
  const now = deps.now();
  const rules = await rulesOf(deps, order.seller_id);
  const tickets = await ticketsOf(deps.db, order.id);
  const verdict = cancelVerdict(rules, tickets, now);
  const cancelable = new Set(verdict.cancelableIds);
  const paidForThem = tickets.filter((t) => cancelable.has(t.id)).reduce((s, t) => s + paidValue(t), 0);
  // Never more than the payments have left (a refund made by hand at the provider, an earlier cancel): what owePaidBack
  // will write for them.
  const refundAmount = paidForThem > 0 ? Math.min(paidForThem, await refundableOf(deps.db, order.id)) : 0;
  const tables: OrderAnswer = await orderTables(deps, order, new Set());
  const refunds = await deps.db
    .selectFrom('order_refund')
    .select(['id', 'amount', 'gateway_id', 'status', 'ticket_ids', 'created_at'])
    .where('ticket_order_id', '=', order.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
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
        refund_amount: money(refundAmount),
        reschedulable_ticket_ids: rescheduleVerdict(rules, tickets, now).cancelableIds,
        edit: await editOf(deps, order.id, caller),
      },
    ]),
    ...(refunds.length > 0
      ? {
          order_refund: table(
            refunds.map((r) => ({
              id: r.id,
              amount: money(r.amount),
              gateway_id: r.gateway_id,
              status: r.status,
              ticket_ids: r.ticket_ids,
              created_at: new Date(r.created_at).toISOString(),
            })),
          ),
        }
      : {}),
  };
}

/** GET ticket_order/{id}/self_edit */
export async function selfEditView(deps: Deps, orderId: string, caller: Caller, signature?: string): Promise<SelfEditAnswer> {
  const order = await loadManageableOrder(deps, orderId, caller, signature);
  refuseLoggedIn(caller, order.id);
  if ((await rulesOf(deps, order.seller_id)).mode === 'off') throw notSelfEditable(order.id, 'mode_off');
  return view(deps, order, caller);
}

/**
 * POST ticket_order/{id}/cancel: cancels the chosen tickets when every one may be cancelled, gives their places back
 * and writes what is owed back for them, all in one transaction; then pays the refunds out through the gateways that
 * took the money and mails the cancellation. The conditional update (`state = 'booked'`) takes each ticket once: of
 * any number of cancels at once, one gives the place back and refunds, the others are refused with
 * ticket_state_incorrect. An open edit moving one of the tickets is discarded with it.
 */
export async function cancelTickets(
  deps: Deps,
  orderId: string,
  caller: Caller,
  ticketIds: string[],
  signature?: string,
): Promise<SelfEditAnswer> {
  const order = await loadManageableOrder(deps, orderId, caller, signature);
  refuseLoggedInStranger(caller, order);
  const rules = await rulesOf(deps, order.seller_id);
  if (rules.mode === 'off') throw notSelfEditable(order.id, 'mode_off');
  const tickets = await ticketsOf(deps.db, order.id);
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

  const now = deps.now();
  const refundIds = await deps.db.transaction().execute(async (trx) => {
    await lockOrderChanges(trx, order.id);
    const edit = await openEdit(trx, order.id, true);
    if (edit) {
      const moved = await trx
        .selectFrom('ticket')
        .select('id')
        .where('cart_id', '=', edit.id)
        .where('state', '=', 'in_cart')
        .where('replaces_ticket_id', 'in', ticketIds)
        .executeTakeFirst();
      if (moved && edit.state === 'checking_out') throw cartErrors.checkingOut(edit.id);
      if (moved) await discardEdit(trx, edit.id, now);
    }
    const cancelled = await trx
      .updateTable('ticket')
      .set({ state: 'cancelled' })
      .where('ticket_order_id', '=', order.id)
      .where('id', 'in', ticketIds)
      .$if(guard, (q) => q.where('state', '=', 'booked'))
      .returning(['id', 'event_session_id', 'ticket_group_id', 'adjusted_value', 'fees'])
      .execute();
    if (cancelled.length !== ticketIds.length)
      throw new DomainError('ticket_state_incorrect', 'This ticket can no longer be changed.', 'self_edit', { ticket_order_id: order.id });
    await releaseCapacity(trx, needsOf(cancelled));
    const owed = cancelled.reduce((s, t) => s + paidValue({ adjustedValue: t.adjusted_value, fees: t.fees }), 0);
    return owePaidBack(trx, { sellerId: order.seller_id, orderId: order.id, amount: owed, ticketIds, now });
  });
  await payOutRefunds(deps, refundIds);
  await sendOrderMail(deps, order.id, 'order_cancel', { refundIds }).catch(() => undefined);
  return view(deps, order, caller);
}

/**
 * POST ticket_order/{id}/reschedule: the chosen tickets move to another session of the same event in the order's
 * edit cart (order-edit.ts); answers the order with the edit to confirm or discard.
 */
export async function rescheduleTickets(
  deps: Deps,
  orderId: string,
  caller: Caller,
  body: { tickets: string[]; event_session_id: string },
  signature?: string,
): Promise<SelfEditAnswer> {
  const order = await loadManageableOrder(deps, orderId, caller, signature);
  refuseLoggedIn(caller, order.id);
  const rules = await rulesOf(deps, order.seller_id);
  if (rules.mode === 'off') throw notSelfEditable(order.id, 'mode_off');
  if (rules.mode !== 'edit_order') throw notSelfEditable(order.id, 'not_edit_mode');
  await rescheduleInEdit(deps, { order, rules, caller, ticketIds: body.tickets, sessionId: body.event_session_id });
  return view(deps, order, caller);
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

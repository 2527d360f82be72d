import type { Kysely } from 'kysely';
import type { Deps } from '../deps';
import type { Database, TicketOrder } from '../db/types';
import type { SelfEditReason } from '../../src/contract/self-edit';
import { selfEditRules, type SelfEditTicket } from '../../src/domain/self-edit';
import { DomainError, notFound } from './errors';
import { isCartOwner, isUuid, type Caller } from './cart/access';
import { holdsManageLink } from './manage-link';

/**
 * Who may act on an order after the purchase, and the seller's rules for it (issue 17; spec sections 5, 6): shared by
 * the manage view and cancellation (self-edit.ts) and the edit and reschedule (order-edit.ts).
 */

/** An order's ticket as the self-service rules read it, with where it is (event and session). */
export interface OrderTicket extends SelfEditTicket {
  eventId: string;
  sessionId: string | null;
}

/**
 * The order, for the browser that bought it (the owner cookie of its cart), the holder of the signed link of its
 * e-mail, and the logged-in owner; anyone else gets the 404 of an order that does not exist.
 */
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

export const notSelfEditable = (orderId: string, reason: SelfEditReason) =>
  new DomainError('order_not_self_editable', 'You must contact us to cancel this order.', 'self_edit', {
    ticket_order_id: orderId,
    reason,
  });

export async function rulesOf(deps: Deps, sellerId: string) {
  const seller = await deps.db.selectFrom('seller').select('config').where('id', '=', sellerId).executeTakeFirstOrThrow();
  return selfEditRules(seller.config?.self_edit_rules);
}

/** The order's tickets as the rules read them. */
export async function ticketsOf(db: Kysely<Database>, orderId: string): Promise<OrderTicket[]> {
  const rows = await db
    .selectFrom('ticket')
    .innerJoin('event_template', 'event_template.id', 'ticket.event_template_id')
    .leftJoin('event_session', 'event_session.id', 'ticket.event_session_id')
    .select([
      'ticket.id',
      'ticket.state',
      'ticket.handler',
      'ticket.face_value',
      'ticket.adjusted_value',
      'ticket.fees',
      'ticket.membership_id',
      'ticket.event_template_id',
      'ticket.event_session_id',
      'event_template.category',
      'event_session.start_datetime',
    ])
    .where('ticket.ticket_order_id', '=', orderId)
    .orderBy('ticket.created_at')
    .orderBy('ticket.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    state: r.state,
    handler: r.handler,
    category: r.category,
    faceValue: r.face_value,
    adjustedValue: r.adjusted_value,
    fees: r.fees,
    membershipId: r.membership_id,
    start: r.start_datetime ? new Date(r.start_datetime) : null,
    eventId: r.event_template_id,
    sessionId: r.event_session_id,
  }));
}

/** Editing and rescheduling are refused while logged in (spec section 6: 'Please log-out to edit your tickets'). */
export function refuseLoggedIn(caller: Caller, orderId: string) {
  if (caller.identityId !== null) throw notSelfEditable(orderId, 'logged_in');
}

/**
 * Cancelling is allowed to the logged-in owner too (the wire); anyone else logged in is refused as editing is
 * (spec section 6), even holding the order's link.
 */
export function refuseLoggedInStranger(caller: Caller, order: TicketOrder) {
  if (caller.identityId !== null && caller.identityId !== order.identity_id) throw notSelfEditable(order.id, 'logged_in');
}

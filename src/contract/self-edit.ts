import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import {
  Body,
  IdParams,
  Instant,
  JsonObject,
  Literals,
  Money,
  NullableInstant,
  NullableInteger,
  OrNull,
  Row,
  SellerQuery,
  Uuid,
} from './primitives';
import { Table } from './tables';
import { OrderAnswer } from './cart';
import { MANAGE_SIGNATURE_HEADER } from './manage-link';

export { MANAGE_SIGNATURE_HEADER };

/**
 * Order self-service (issue 17; spec sections 2, 4, 5, 6, 8): what a visitor may do with an order after the purchase.
 * The browser that bought it (its owner cookie), the holder of the signed link of the order e-mail and (to cancel) the
 * logged-in owner may act on it; editing and rescheduling need the visitor logged out (spec section 6).
 * - cancel: free tickets, and paid ones where the seller's edit_order rules allow it (`cancel_paid_tickets`), refunded
 *   through the gateway that took the money;
 * - edit (edit_order mode): a reschedule puts the order's tickets into an edit cart in another session of the same
 *   event, with its own hold; the edit is confirmed by checking that cart out (free, or the difference paid at
 *   /manage/{orderId}/confirm), or discarded by deleting it (DELETE cart/{id}).
 */

export const SelfEditMode = Literals('off', 'free_order_only', 'edit_order');

/** Why an order, or a ticket of it, cannot be cancelled by its visitor. */
export const SelfEditReason = Literals(
  'logged_in',
  'mode_off',
  /** a reschedule where the seller allows free cancellation only (free_order_only) */
  'not_edit_mode',
  'not_free',
  'category',
  /** a member's benefit ticket: benefits are counted per visit, so the box office moves it */
  'member_benefit',
  'tickets_too_old',
  'ticket_state_incorrect',
);
export type SelfEditReason = Static<typeof SelfEditReason>;

/** One ticket an edit moves: the order's booked ticket and the ticket (in the edit cart) that replaces it. */
export const EditMoveRow = Row({
  ticket_id: Uuid,
  to_ticket_id: Uuid,
  to_event_session_id: Uuid,
  to_start_datetime: Instant,
});
export type EditMoveRow = Static<typeof EditMoveRow>;

/** An edit in progress: its cart (the checkout confirms it), hold and what it costs more than was paid. */
export const EditRow = Row({
  cart_id: Uuid,
  expires_at: NullableInstant,
  /** seconds left of the edit's hold */
  expires_in: NullableInteger(),
  /** what confirming costs: the new tickets less what was paid for the ones they replace, never below 0 */
  outstanding: Money,
  moves: Type.Array(EditMoveRow, { maxItems: 1000 }),
});
export type EditRow = Static<typeof EditRow>;

export const SelfEditRow = Row({
  ticket_order_id: Uuid,
  mode: SelfEditMode,
  /** whether any ticket can be cancelled now */
  cancelable: Type.Boolean(),
  /** the first reason nothing can be cancelled, null when something can */
  reason: OrNull(SelfEditReason),
  /** the tickets a cancel would take: free, booked, of a self-editable category, their session beyond the horizon */
  cancelable_ticket_ids: Type.Array(Uuid, { maxItems: 1000 }),
  /** how long before the visit self-service closes (config self_edit_rules.horizon_hours or horizon_days) */
  horizon_hours: NullableInteger(),
  /** what cancelling every cancelable ticket gives back (what was paid for them), '0.00' for free ones */
  refund_amount: Type.Optional(Money),
  /** the tickets a reschedule may move (edit_order mode): booked, of a self-editable category, beyond the horizon */
  reschedulable_ticket_ids: Type.Optional(Type.Array(Uuid, { maxItems: 1000 })),
  /** this browser's unsaved changes (spec section 4: an edit cart with its expiry), or null */
  edit: Type.Optional(OrNull(EditRow)),
});
export type SelfEditRow = Static<typeof SelfEditRow>;

/** What a cancellation gave back, by payment: the gateway it went to and whether it has been paid out yet. */
export const OrderRefundRow = Row({
  id: Uuid,
  amount: Money,
  gateway_id: Type.String(),
  status: Literals('pending', 'succeeded', 'failed'),
  ticket_ids: Type.Array(Uuid, { maxItems: 1000 }),
  created_at: Instant,
});
export type OrderRefundRow = Static<typeof OrderRefundRow>;

/** The order as GET ticket_order/{id} answers it, its self-service row, and the refunds of its cancellations. */
export const SelfEditAnswer = Row({
  ...OrderAnswer.properties,
  self_edit: Table(SelfEditRow),
  order_refund: Type.Optional(Table(OrderRefundRow)),
});
export type SelfEditAnswer = Static<typeof SelfEditAnswer>;

const ManageHeaders = Type.Object({
  [MANAGE_SIGNATURE_HEADER]: Type.Optional(Type.String({ minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]+$' })),
});

export const CancelBody = Body({
  /** the ids of the tickets to cancel */
  tickets: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }),
  /** spec section 7; unused: a refund goes back through the gateway that took the money */
  gateway_data: Type.Optional(JsonObject),
});
export type CancelBody = Static<typeof CancelBody>;

export const RescheduleBody = Body({
  /** the order's tickets to move (booked, of one session) */
  tickets: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }),
  /** the new session: another time of the same event */
  event_session_id: Uuid,
});
export type RescheduleBody = Static<typeof RescheduleBody>;

export const OrderEmailBody = Body({ log_context: Type.Optional(Literals('order_update', 'order_cancel')) });
export type OrderEmailBody = Static<typeof OrderEmailBody>;

export const selfEditRoutes = {
  selfEdit: route({
    method: 'GET',
    url: '/ticket_order/:id/self_edit',
    schema: {
      summary: 'What the visitor may do with the order: its tickets and which of them can be cancelled (refused while logged in)',
      tags: ['orders'],
      params: IdParams,
      querystring: SellerQuery,
      headers: ManageHeaders,
      response: answers(SelfEditAnswer),
    },
  }),
  cancel: route({
    method: 'POST',
    url: '/ticket_order/:id/cancel',
    schema: {
      summary:
        'Cancels tickets of a future session (free ones; paid ones where the seller allows it, refunded through the gateway that took the money), gives their places back and mails the cancellation',
      tags: ['orders'],
      params: IdParams,
      querystring: SellerQuery,
      headers: ManageHeaders,
      body: CancelBody,
      response: answers(SelfEditAnswer),
    },
  }),
  reschedule: route({
    method: 'POST',
    url: '/ticket_order/:id/reschedule',
    schema: {
      summary:
        "Moves tickets to another session of the same event in the order's edit cart (its own hold): the new places are taken now, the old ones given back when the edit is checked out (refused while logged in)",
      tags: ['orders'],
      params: IdParams,
      querystring: SellerQuery,
      headers: ManageHeaders,
      body: RescheduleBody,
      response: answers(SelfEditAnswer),
    },
  }),
  email: route({
    method: 'POST',
    url: '/ticket_order/:id/email',
    schema: {
      summary: 'Mails the order again: its tickets, or the news of a change (order_update) or a cancellation (order_cancel)',
      tags: ['orders'],
      params: IdParams,
      querystring: SellerQuery,
      headers: ManageHeaders,
      body: OrderEmailBody,
      response: answers(Row({ ticket_order: OrderAnswer.properties.ticket_order })),
    },
  }),
};

import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { Body, IdParams, JsonObject, Literals, NullableInteger, Row, SellerQuery, Uuid } from './primitives';
import { Table } from './tables';
import { OrderAnswer } from './cart';
import { MANAGE_SIGNATURE_HEADER } from './manage-link';

export { MANAGE_SIGNATURE_HEADER };

/**
 * Order self-service (issue 17; spec sections 2, 4, 5, 6): what a visitor may do with an order after the purchase.
 * The browser that bought it (its owner cookie) and the holder of the signed link of the order e-mail may act on it;
 * editing and cancelling need the visitor logged out (spec section 6). Edit-order, reschedule and paid refunds are
 * not built yet: cancellation covers free orders only.
 */

export const SelfEditMode = Literals('off', 'free_order_only', 'edit_order');

/** Why an order, or a ticket of it, cannot be cancelled by its visitor. */
export const SelfEditReason = Literals('logged_in', 'mode_off', 'not_free', 'category', 'tickets_too_old', 'ticket_state_incorrect');
export type SelfEditReason = Static<typeof SelfEditReason>;

export const SelfEditRow = Row({
  ticket_order_id: Uuid,
  mode: SelfEditMode,
  /** whether any ticket can be cancelled now */
  cancelable: Type.Boolean(),
  /** the first reason nothing can be cancelled, null when something can */
  reason: Type.Union([SelfEditReason, Type.Null()]),
  /** the tickets a cancel would take: free, booked, of a self-editable category, their session beyond the horizon */
  cancelable_ticket_ids: Type.Array(Uuid, { maxItems: 1000 }),
  /** how long before the visit self-service closes (config self_edit_rules.horizon_hours or horizon_days) */
  horizon_hours: NullableInteger(),
});
export type SelfEditRow = Static<typeof SelfEditRow>;

/** The order as GET ticket_order/{id} answers it, and its self-service row. */
export const SelfEditAnswer = Row({ ...OrderAnswer.properties, self_edit: Table(SelfEditRow) });
export type SelfEditAnswer = Static<typeof SelfEditAnswer>;

const ManageHeaders = Type.Object({
  [MANAGE_SIGNATURE_HEADER]: Type.Optional(Type.String({ minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]+$' })),
});

export const CancelBody = Body({
  /** the ids of the tickets to cancel */
  tickets: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }),
  /** spec section 7; unused for free orders, which refund nothing */
  gateway_data: Type.Optional(JsonObject),
});
export type CancelBody = Static<typeof CancelBody>;

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
      summary: 'Cancels free tickets of a future session and gives their places back; mails the cancellation',
      tags: ['orders'],
      params: IdParams,
      querystring: SellerQuery,
      headers: ManageHeaders,
      body: CancelBody,
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

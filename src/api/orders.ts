import type { AxiosInstance } from 'axios';
import type { OrderAnswer, TicketOrderRow, TicketRow } from '../contract/cart';
import { MANAGE_SIGNATURE_HEADER } from '../contract/manage-link';
import { ORDER_TOKEN_HEADER } from '../contract/urls';
import type { CancelBody, OrderEmailBody, RescheduleBody, SelfEditAnswer } from '../contract/self-edit';
import type { CheckoutBody } from '../contract/cart';

export type { TicketOrderRow };
export type OrderTicketRow = TicketRow;
export type OrderResponse = OrderAnswer;

/** The order's access token as a request header (never in the address). */
const tokenHeaders = (accessToken?: string | null) => (accessToken ? { [ORDER_TOKEN_HEADER]: accessToken } : {});

/** GET ticket_order/{id}: readable by the browser that owns the cart (cookie) or with the order's access token. */
export async function getOrder(client: AxiosInstance, orderId: string, accessToken?: string | null): Promise<OrderResponse> {
  const { data } = await client.get<OrderResponse>(`ticket_order/${encodeURIComponent(orderId)}`, {
    params: { _embed: 'ticket,ticket_type,event_template,venue,ledger' },
    headers: tokenHeaders(accessToken),
  });
  return data;
}

/** GET ticket_order/{id}/qrcode with the order's access token: the PNG, for a browser that may have lost its cookie. */
export async function getOrderQr(client: AxiosInstance, orderId: string, accessToken: string): Promise<Blob> {
  const { data } = await client.get<Blob>(`ticket_order/${encodeURIComponent(orderId)}/qrcode`, {
    responseType: 'blob',
    headers: tokenHeaders(accessToken),
  });
  return data;
}

/** The manage link's signature as a request header (issue 17). */
const signatureHeaders = (signature: string | null) => (signature ? { [MANAGE_SIGNATURE_HEADER]: signature } : {});

/** GET ticket_order/{id}/self_edit: the order and what its visitor may do with it. */
export async function getSelfEdit(client: AxiosInstance, orderId: string, signature: string | null): Promise<SelfEditAnswer> {
  const { data } = await client.get<SelfEditAnswer>(`ticket_order/${encodeURIComponent(orderId)}/self_edit`, {
    headers: signatureHeaders(signature),
  });
  return data;
}

/** POST ticket_order/{id}/cancel: cancels the given free tickets; answers the order as it is now. */
export async function cancelTickets(
  client: AxiosInstance,
  orderId: string,
  tickets: string[],
  signature: string | null,
): Promise<SelfEditAnswer> {
  const body: CancelBody = { tickets };
  const { data } = await client.post<SelfEditAnswer>(`ticket_order/${encodeURIComponent(orderId)}/cancel`, body, {
    headers: signatureHeaders(signature),
  });
  return data;
}

/** POST ticket_order/{id}/email: the order's mail (a free checkout asks for it after booking, spec section 7). */
export async function emailOrder(
  client: AxiosInstance,
  orderId: string,
  body: OrderEmailBody = {},
  signature: string | null = null,
): Promise<void> {
  await client.post(`ticket_order/${encodeURIComponent(orderId)}/email`, body, { headers: signatureHeaders(signature) });
}

/** POST ticket_order/{id}/reschedule: the tickets move to another time in the order's edit cart; answers the order. */
export async function rescheduleTickets(
  client: AxiosInstance,
  orderId: string,
  body: RescheduleBody,
  signature: string | null,
): Promise<SelfEditAnswer> {
  const { data } = await client.post<SelfEditAnswer>(`ticket_order/${encodeURIComponent(orderId)}/reschedule`, body, {
    headers: signatureHeaders(signature),
  });
  return data;
}

/** Confirms an edit with nothing to pay (spec section 4: it checks out free); the server mails the order's update
 *  (order_update) as it does for an edit the card paid. */
export async function confirmFreeEdit(client: AxiosInstance, cartId: string): Promise<void> {
  const body = { amount: '0.00', gateway_id: 'free', send_email: true } as CheckoutBody;
  await client.post(`cart/${encodeURIComponent(cartId)}/guest_checkout`, body);
}

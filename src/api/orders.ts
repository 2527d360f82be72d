import type { AxiosInstance } from 'axios';
import type { OrderAnswer, TicketOrderRow, TicketRow } from '../contract/cart';
import { ORDER_TOKEN_HEADER } from '../contract/urls';

export type { TicketOrderRow };
export type OrderTicketRow = TicketRow;
export type OrderResponse = OrderAnswer;

/** The order's access token as a request header (never in the address). */
const tokenHeaders = (accessToken?: string | null) => (accessToken ? { [ORDER_TOKEN_HEADER]: accessToken } : {});

/** GET ticket_order/{id}: readable by the browser that owns the cart (cookie) or with the order's access token. */
export async function getOrder(client: AxiosInstance, orderId: string, accessToken?: string | null): Promise<OrderResponse> {
  const { data } = await client.get<OrderResponse>(`ticket_order/${encodeURIComponent(orderId)}`, {
    params: { _embed: 'ticket,ticket_type,event_template,venue' },
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

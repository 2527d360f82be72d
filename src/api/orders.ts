import type { AxiosInstance } from 'axios';
import type { OrderAnswer, TicketOrderRow, TicketRow } from '../contract/cart';

export type { TicketOrderRow };
export type OrderTicketRow = TicketRow;
export type OrderResponse = OrderAnswer;

/** GET ticket_order/{id}: readable by the browser that owns the cart (cookie) or with the order's access token. */
export async function getOrder(client: AxiosInstance, orderId: string, accessToken?: string | null): Promise<OrderResponse> {
  const { data } = await client.get<OrderResponse>(`ticket_order/${encodeURIComponent(orderId)}`, {
    params: { _embed: 'ticket,ticket_type,event_template,venue', ...(accessToken ? { access_token: accessToken } : {}) },
  });
  return data;
}

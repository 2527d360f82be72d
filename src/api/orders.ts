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

/** The order's QR image under the cached API (the owner cookie travels with the img request; the token is a
 *  fallback for a browser that lost its cookie). */
export function orderQrUrl(cachedApiBaseUrl: string, orderId: string, seller: string, accessToken?: string | null): string {
  const base = cachedApiBaseUrl.endsWith('/') ? cachedApiBaseUrl.slice(0, -1) : cachedApiBaseUrl;
  const query = new URLSearchParams({ _seller: seller });
  if (accessToken) query.set('access_token', accessToken);
  return `${base}/ticket_order/${encodeURIComponent(orderId)}/qrcode?${query.toString()}`;
}

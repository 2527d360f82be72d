import type { AxiosInstance } from 'axios';
import type { Table } from './types';

export interface TicketOrderRow {
  id: string;
  order_number: string;
  cart_id: string;
  state: string;
  purchased_on: string | null;
  total_before_fees_price: string;
  total_fees: string;
  total_discount: string;
  total_after_fees_price: string;
}

export interface OrderTicketRow {
  id: string;
  state: string;
  event_session_id: string | null;
  event_template_id: string;
  ticket_type_id: string;
  adjusted_value: string;
  start_datetime: string | null;
  timezone: string | null;
}

export interface OrderResponse {
  ticket_order: Table<TicketOrderRow>;
  ticket?: Table<OrderTicketRow>;
  ticket_type?: Table<{ id: string; name: string }>;
  event_template?: Table<{ id: string; name: string }>;
  venue?: Table<{ id: string; name: string; timezone: string }>;
}

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

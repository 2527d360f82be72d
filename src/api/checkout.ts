import type { AxiosInstance } from 'axios';
import type { Table } from './types';
import type { TicketOrderRow } from './orders';

/** POST user body: the guest purchaser (spec section 7; the server validates again with section 5 rules). */
export interface PurchaserBody {
  first_name: string;
  last_name: string;
  email: string;
  email_confirm?: string;
  phone?: string | null;
  zip_code?: string | null;
}

export interface CardData { number: string; exp_month: number; exp_year: number; cvc: string }

/** POST cart/{id}/guest_checkout body. amount is the outstanding total as a decimal string. */
export interface CheckoutBody {
  amount: string;
  gateway_id: 'test' | 'free';
  gateway_data: { card?: CardData; source?: string };
  guest_identity_id: string;
  send_email: boolean;
}

export interface CheckoutResponse {
  ticket_order: Table<TicketOrderRow & { access_token?: string }>;
}

/** POST user -> the identity id the checkout refers to. */
export async function createPurchaser(client: AxiosInstance, body: PurchaserBody): Promise<string> {
  const { data } = await client.post<{ identity: Table<{ id: string; identity_id: string }> }>('user', body);
  const row = data.identity?._data?.[0];
  if (!row) throw new Error('POST user answered without an identity');
  return row.identity_id ?? row.id;
}

export async function guestCheckout(client: AxiosInstance, cartId: string, body: CheckoutBody): Promise<CheckoutResponse> {
  const { data } = await client.post<CheckoutResponse>(`cart/${encodeURIComponent(cartId)}/guest_checkout`, body);
  return data;
}

import type { AxiosInstance } from 'axios';
import type { Table } from './types';

/** One line to put in the cart (POST cart/modify `add`). Money (face_value) is a decimal string. */
export interface ReserveLine {
  event_session_id: string | null;
  ticket_type_id: string;
  admit_name?: string;
  admit_email?: string;
  face_value?: string;
  seat_id?: string;
}

export type CartState = 'pending' | 'checking_out' | 'completed' | 'expired' | 'cancelled';

export interface CartGrandTotals {
  total_before_cartmod_price: string;
  total_fee_fixed_outside: string;
  total_fee_percent_outside: string;
  total_cartmod_amount: string;
  total_payments: string;
  total_outstanding: string;
}

/** Spec section 3 "Cart item (display)": the tickets of one event (and session), counted per type. */
export interface CartItemType {
  ticket_type_id: string;
  ticket_type_name: string;
  ticket_group_id?: string;
  ticket_group_name: string;
  ticketCount: number;
  totalPrice: string;
}

export interface CartItemRow {
  id: string;
  name: string;
  event_template_id: string;
  event_session_id: string | null;
  start_datetime: string | null;
  image_url: string | null;
  image_alt: string;
  types: CartItemType[];
  isAnchor: boolean;
  isDependency: boolean;
  isMembershipEvent: boolean;
  ticketIds: string[];
}

export interface CartRow {
  id: string;
  cart_number: string;
  state: CartState;
  seller_id: string;
  expires_at: string | null;
  expires_in: number | null;
  extended_at: string | null;
  cart_fees: { gateway_id: 'test' | 'free'; account_id: string; grand_totals: CartGrandTotals };
  items: CartItemRow[];
  ticket_order_ids: string[];
}

export interface CartTicketRow {
  id: string;
  state: string;
  event_session_id: string | null;
  ticket_type_id: string;
  ticket_group_id: string;
  adjusted_value: string;
  fees: string;
  start_datetime: string | null;
  timezone: string | null;
}

export interface CartResponse {
  cart: Table<CartRow>;
  ticket: Table<CartTicketRow>;
  venue?: Table<{ id: string; name: string; timezone: string }>;
}

const path = (id: string) => `cart/${encodeURIComponent(id)}`;

/** POST cart/modify (no cart yet: the server creates one and sets the owner cookie) or cart/{id}/modify. */
export async function modifyCart(client: AxiosInstance, cartId: string | null,
  body: { add?: ReserveLine[]; remove?: string[]; additional_info?: Record<string, unknown>; channel_id?: 'web' }): Promise<CartResponse> {
  const url = cartId ? `${path(cartId)}/modify` : 'cart/modify';
  const { data } = await client.post<CartResponse>(url, body);
  return data;
}

export async function getCart(client: AxiosInstance, cartId: string): Promise<CartResponse> {
  const { data } = await client.get<CartResponse>(path(cartId), { params: { _embed: 'venue' } });
  return data;
}

export async function removeTickets(client: AxiosInstance, cartId: string, ticketIds: string[]): Promise<CartResponse> {
  const { data } = await client.post<CartResponse>(`${path(cartId)}/remove`, { tickets: ticketIds });
  return data;
}

export async function deleteCart(client: AxiosInstance, cartId: string): Promise<void> {
  await client.delete(path(cartId));
}

/** PATCH my/cart/{id}: the one 2-minute extension (spec section 4). */
export async function extendCart(client: AxiosInstance, cartId: string): Promise<CartResponse> {
  const { data } = await client.patch<CartResponse>(`my/${path(cartId)}`, {});
  return data;
}

/** The cart row of a response, or null when the server sent none. */
export function cartOf(response: CartResponse): CartRow | null {
  return response.cart?._data?.[0] ?? null;
}

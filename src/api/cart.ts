import type { ApiClient } from './http';
import type {
  AddLine,
  CartAnswer,
  CartItemRow,
  CartRow,
  CartState as CartStateSchema,
  GrandTotalsRow,
  ModifyBody,
  TicketRow,
} from '../contract/cart';
import type { Static } from 'typebox';
import { cartRead } from '../contract/first-reads';
import type { CartTransferAnswer, CartTransferRow, ClaimBody } from '../contract/cart-transfer';

/** One line to put in the cart (POST cart/modify `add`). Money (face_value) is a decimal string. */
export type ReserveLine = AddLine;
export type CartState = Static<typeof CartStateSchema>;
type ModifyBodyType = Static<typeof ModifyBody>;
export type CartGrandTotals = GrandTotalsRow;
export type { CartItemRow, CartRow };
export type CartItemType = CartItemRow['types'][number];
export type CartTicketRow = TicketRow;
export type CartResponse = CartAnswer;

// The cart's address is spelled once, in the checkout's first read.
const path = (id: string) => cartRead(id).path;

/** POST cart/modify (no cart yet: the server creates one and sets the owner cookie) or cart/{id}/modify. */
export async function modifyCart(
  client: ApiClient,
  cartId: string | null,
  body: Pick<ModifyBodyType, 'add' | 'remove' | 'channel_id' | 'apply_code_default'> & { additional_info?: Record<string, unknown> },
): Promise<CartResponse> {
  const url = cartId ? `${path(cartId)}/modify` : 'cart/modify';
  const { data } = await client.post<CartResponse>(url, body);
  return data;
}

export async function getCart(client: ApiClient, cartId: string): Promise<CartResponse> {
  const read = cartRead(cartId);
  const { data } = await client.get<CartResponse>(read.path, { params: read.params });
  return data;
}

export async function removeTickets(client: ApiClient, cartId: string, ticketIds: string[]): Promise<CartResponse> {
  const { data } = await client.post<CartResponse>(`${path(cartId)}/remove`, { tickets: ticketIds });
  return data;
}

export async function deleteCart(client: ApiClient, cartId: string): Promise<void> {
  await client.delete(path(cartId));
}

/** PATCH my/cart/{id}: the one 2-minute extension (spec section 4). */
export async function extendCart(client: ApiClient, cartId: string): Promise<CartResponse> {
  const { data } = await client.patch<CartResponse>(`my/${path(cartId)}`, {});
  return data;
}

/** The cart row of a response, or null when the server sent none. */
export function cartOf(response: CartResponse): CartRow | null {
  return response.cart?._data?.[0] ?? null;
}

/** POST cart/{id}/transfer: a link's token that hands the cart to another browser, once, for an hour (issue 17). */
export async function createTransferLink(client: ApiClient, cartId: string): Promise<CartTransferRow> {
  const { data } = await client.post<CartTransferAnswer>(`${path(cartId)}/transfer`, {});
  return data.cart_transfer._data[0];
}

/** POST cart/{id}/claim: takes the cart over with its link's token; answers it as GET cart does. */
export async function claimCart(client: ApiClient, cartId: string, token: string): Promise<CartResponse> {
  const body: ClaimBody = { token };
  const { data } = await client.post<CartResponse>(`${path(cartId)}/claim`, body, { params: { _embed: 'venue' } });
  return data;
}

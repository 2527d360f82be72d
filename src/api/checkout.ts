import type { AxiosInstance } from 'axios';
import type { GuestIdentityAnswer, GuestIdentityBody } from '../contract/account';
import type { CartAnswer, OrderAnswer, PendingPaymentAnswer } from '../contract/cart';

/** POST user body: the guest purchaser (spec section 7; the server validates again with section 5 rules). */
export type PurchaserBody = GuestIdentityBody;

export interface CardData {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

/** POST cart/{id}/guest_checkout body. amount is the outstanding total as a decimal string. */
export interface CheckoutBody {
  amount: string;
  gateway_id: 'test' | 'stripe' | 'free' | 'ledger';
  /** card: the test gateway's card; payment_method: Stripe's PaymentMethod id; source: a confirmed intent's id;
   *  number: a gift card's (the ledger gateway, issue 13). */
  gateway_data: { card?: CardData; source?: string; payment_method?: string; saved_payment_method?: string; number?: string };
  guest_identity_id: string;
  /** the 409 email_in_use's proof that this browser gave the account's password (issue 13) */
  guest_identity_proof?: string;
  send_email: boolean;
  /** a membership in the cart renews automatically with the card kept at purchase (issue 12) */
  auto_renew?: boolean;
  /** the logged-in shopper keeps the card for next time (issue 22) */
  save_payment_method?: boolean;
}

/** 200: the booked order, or the cart when a gift card paid part of it; 202: the payment is still clearing (a debit). */
export type CheckoutResponse = Partial<OrderAnswer> & Partial<PendingPaymentAnswer> & Partial<Pick<CartAnswer, 'cart'>>;

/** POST user -> the identity id the checkout refers to. */
export async function createPurchaser(client: AxiosInstance, body: PurchaserBody): Promise<string> {
  const { data } = await client.post<GuestIdentityAnswer>('user', body);
  const row = data.identity?._data?.[0];
  if (!row) throw new Error('POST user answered without an identity');
  return row.identity_id ?? row.id;
}

export async function guestCheckout(client: AxiosInstance, cartId: string, body: CheckoutBody): Promise<CheckoutResponse> {
  const { data } = await client.post<CheckoutResponse>(`cart/${encodeURIComponent(cartId)}/guest_checkout`, body);
  return data;
}

/** POST cart/{id}/gift_checkout (guest giver) or my/cart/{id}/gift_checkout (logged in): a gift of membership (issue 12). */
export async function giftCheckout(
  client: AxiosInstance,
  cartId: string,
  body: CheckoutBody & { giftee_identity_id: string },
  loggedIn: boolean,
): Promise<CheckoutResponse> {
  const { data } = await client.post<CheckoutResponse>(`${loggedIn ? 'my/' : ''}cart/${encodeURIComponent(cartId)}/gift_checkout`, body);
  return data;
}

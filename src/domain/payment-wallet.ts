/** Apple Pay and Google Pay at checkout (issue 14), not the wallet passes of a booked ticket (server/services/wallet/). */
/** Spec section 4: the wallet is apple, google or none (none: a card typed in the Payment Element). */
export type Wallet = 'apple' | 'google' | 'none';
/** Spec section 4: the payment type is card, apple_pay or google_pay (the add_payment_info report's payment_type). */
export type PaymentType = 'card' | 'apple_pay' | 'google_pay';

/** The wallet that paid, from the Express Checkout Element's expressPaymentType. */
export function walletOf(expressPaymentType: string | null | undefined): Wallet {
  if (expressPaymentType === 'apple_pay') return 'apple';
  if (expressPaymentType === 'google_pay') return 'google';
  return 'none';
}

export function paymentTypeOf(wallet: Wallet | null | undefined): PaymentType {
  return wallet === 'apple' ? 'apple_pay' : wallet === 'google' ? 'google_pay' : 'card';
}

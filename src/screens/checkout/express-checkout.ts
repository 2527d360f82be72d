import type { StripeExpressCheckoutElementOptions } from '@stripe/stripe-js';
import type { IdentityFormData } from '../../domain/checkout-rules';
import { PAYMENT_METHOD_ORDER, type StripePaymentHandle } from './stripe-payment';
import type { Wallet } from '../../domain/payment-wallet';

export { paymentTypeOf, walletOf, type Wallet } from '../../domain/payment-wallet';

/**
 * The Express Checkout Element's part of a Stripe seller's checkout (issue 14; spec sections 4, 5 and 9), without
 * Stripe.js, so it is tested on its own: the element's options, what its click answers, and which wallet paid.
 * StripePayment.tsx (the lazy chunk that loads Stripe.js) draws the element with these.
 */

/** Spec section 2: the wallet button is 48 px high. Only Apple Pay and Google Pay are offered (no Link, PayPal, ...). */
export function expressCheckoutOptions(): StripeExpressCheckoutElementOptions {
  return {
    buttonHeight: 48,
    paymentMethodOrder: [...PAYMENT_METHOD_ORDER],
    paymentMethods: { applePay: 'auto', googlePay: 'auto', link: 'never', paypal: 'never', amazonPay: 'never', klarna: 'never' },
  };
}

/** The texts a wallet sheet shows (i18n: payment.walletTotal, payment.walletShippingEmail, payment.walletShippingEmailDetail). */
export interface WalletTexts {
  total: string;
  /** spec section 9: 'Email' */
  shipping: string;
  /** spec section 9: 'Your order will be sent by email.' */
  shippingDetail: string;
}

/**
 * What the element's click answers (resolve): the total as one line in minor units (spec section 7: amounts to the
 * card provider and wallets are x100), the one shipping option 'Email' at 0 (spec section 9), and the payer's e-mail.
 */
export function clickResolveDetails(amountMinor: number, texts: WalletTexts) {
  if (!Number.isInteger(amountMinor) || amountMinor < 0) throw new Error(`a wallet amount is whole minor units, not ${amountMinor}`);
  return {
    emailRequired: true,
    // A wallet sheet shows shipping options only when it asks for an address; the one option says how tickets come.
    shippingAddressRequired: true,
    shippingRates: [{ id: 'email', amount: 0, displayName: texts.shipping, deliveryEstimate: texts.shippingDetail }],
    lineItems: [{ name: texts.total, amount: amountMinor }],
  };
}

/**
 * The wallets this browser offers, from the element's ready event (availablePaymentMethods; undefined when none):
 * the element's box is shown only when there is one (headless Chromium, most desktops without a wallet: none).
 */
export function availableWallets(available: { applePay?: boolean; googlePay?: boolean } | undefined | null): Wallet[] {
  const wallets: Wallet[] = [];
  if (available?.applePay) wallets.push('apple');
  if (available?.googlePay) wallets.push('google');
  return wallets;
}

/**
 * Whether the purchaser form holds what a checkout needs, checked at once: the element's click must answer within a
 * second, so it cannot wait for the form's own validation. Incomplete: the click is refused and the form shows why.
 */
export function purchaserComplete(identity: IdentityFormData | null): boolean {
  if (!identity) return true;
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const email = text(identity.email).toLowerCase();
  return Boolean(text(identity.first_name) && text(identity.last_name) && email && email === text(identity.email_confirm).toLowerCase());
}

/** The Express Checkout Element's part (Apple Pay, Google Pay): what its click and confirm do in the checkout. */
export interface ExpressCheckout {
  texts: WalletTexts;
  /** The purchaser and terms are complete (the element must answer its click within a second); false shows why. */
  onClick(): boolean;
  /** Pays with the wallet's PaymentMethod through the same checkout call as the card; false: the wallet says it failed. */
  onConfirm(handle: StripePaymentHandle, wallet: Wallet): Promise<boolean>;
}

import type { CheckoutOutcome, CheckoutStore } from '../../stores/CheckoutStore';
import type { IdentityFormData } from '../../domain/checkout-rules';
import type { Wallet } from '../../domain/payment-wallet';

/**
 * The Stripe payment step without Stripe.js (issue 14), so the storefront's logic is tested on its own: the Payment
 * Element's part is behind `StripePaymentHandle` (StripePayment.tsx, the lazy chunk that loads Stripe.js).
 */
export type PaymentMethodResult =
  | { kind: 'ok'; paymentMethodId: string }
  /** The element showed its own validation error (and was scrolled to and focused). */
  | { kind: 'invalid' }
  /** Stripe refused before any charge (a card it cannot take): its message. */
  | { kind: 'error'; message: string }
  /** Stripe.js is still loading, or could not load. */
  | { kind: 'unavailable'; loading: boolean };

export interface StripePaymentHandle {
  createPaymentMethod(): Promise<PaymentMethodResult>;
  /** 3-D Secure and other next actions of an intent, run by Stripe.js in the page. */
  handleNextAction(clientSecret: string): Promise<{ ok: true } | { ok: false; message: string }>;
}

/** Spec section 11: payment methods in the order apple_pay, google_pay, card. */
export const PAYMENT_METHOD_ORDER = ['apple_pay', 'google_pay', 'card'] as const;

/** How long Stripe.js may take before the checkout says it could not load. */
export const stripeLoadTimeoutMs = () => 15_000;

export type StripeStep = CheckoutOutcome | { kind: 'invalid' } | { kind: 'unavailable' };

/**
 * Pays with Stripe: the element makes a PaymentMethod, the server charges it; a 402 intent_requires_action runs the
 * card issuer's step in the page and retries with the intent as the source. Every failure leaves the form as it was
 * (nothing typed is lost) with the spec's message in the store.
 */
export async function payWithStripe(
  handle: StripePaymentHandle | null,
  checkout: CheckoutStore,
  identity: IdentityFormData | null,
  /** the logged-in shopper's 'save this card for next time' (issue 22), the gift cards charged first (issue 13) */
  opts: Parameters<CheckoutStore['submit']>[2] = {},
  /** the Express Checkout Element's wallet (Apple Pay, Google Pay) that made the PaymentMethod: the same checkout call */
  wallet?: Wallet,
): Promise<StripeStep> {
  const made = handle ? await handle.createPaymentMethod() : ({ kind: 'unavailable', loading: true } as const);
  if (made.kind === 'invalid') return made;
  if (made.kind === 'unavailable') {
    checkout.failProvider(made.loading ? 'loading' : 'unavailable');
    return { kind: 'unavailable' };
  }
  if (made.kind === 'error') {
    await checkout.failPendingAction(made.message);
    return { kind: 'failed' };
  }
  let outcome = await checkout.submit(
    identity,
    { kind: 'stripe', paymentMethodId: made.paymentMethodId, ...(wallet ? { wallet } : {}) },
    opts,
  );
  const secret = checkout.pendingClientSecret;
  if (outcome.kind === 'requires_action' && secret && handle) {
    const next = await handle.handleNextAction(secret);
    if (!next.ok) {
      await checkout.failPendingAction(next.message);
      return { kind: 'failed' };
    }
    outcome = await checkout.confirmPendingAction();
  }
  return outcome;
}

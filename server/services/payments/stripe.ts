import Stripe from 'stripe';
import type { ErrorCode } from '../../../src/contract/errors';
import { cardAmountSupported } from '../../../src/domain/checkout-rules';
import {
  paymentError,
  type ChargeLookup,
  type ChargeRequest,
  type ChargeResult,
  type Gateway,
  type GatewaySettings,
  type ReusableMethod,
} from './types';

/**
 * The `stripe` gateway (DESIGN.md section 5): PaymentIntents through the `stripe` package, "finalize on the server".
 * The browser's Payment Element makes a PaymentMethod (gateway_data.payment_method); the checkout creates and confirms
 * the intent here under the attempt's idempotency key, so a retried checkout never charges twice. A 3-D Secure card
 * answers 402 intent_requires_action with the intent's client secret; the browser confirms it and retries with the
 * intent id as gateway_data.source, which is read back here (never trusted as paid on the browser's word).
 * STRIPE_API_BASE points the package at a Stripe-compatible server (the tests' fake, stripe-mock).
 */

/** Provider codes the storefront words itself; any other card error keeps the provider's message under payment_failed. */
const KNOWN_CODES = new Set<ErrorCode>([
  'card_declined',
  'incorrect_cvc',
  'invalid_cvc',
  'incorrect_number',
  'incorrect_zip',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'expired_card',
  'payment_intent_authentication_failure',
]);

const clients = new WeakMap<GatewaySettings, Stripe>();

/** The package's client for these settings (one per settings object), pointed at STRIPE_API_BASE when set. */
export function stripeClient(settings: GatewaySettings): Stripe {
  let client = clients.get(settings);
  if (client) return client;
  if (!settings.stripeSecretKey) throw new Error('STRIPE_SECRET_KEY is not set');
  const base = settings.stripeApiBase ? new URL(settings.stripeApiBase) : null;
  client = new Stripe(settings.stripeSecretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'http:' ? 80 : 443),
          protocol: base.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
  clients.set(settings, client);
  return client;
}

/** A refusal of the provider as the checkout's 402: its code when the storefront knows it, its message always. */
function refusal(err: unknown): never {
  if (
    err instanceof Stripe.errors.StripeCardError ||
    (err instanceof Stripe.errors.StripeError && err.type === 'StripeInvalidRequestError')
  ) {
    const code = (KNOWN_CODES.has(err.code as ErrorCode) ? err.code : 'payment_failed') as ErrorCode;
    throw paymentError(code, err.message, {
      provider_code: err.code ?? null,
      ...(err.decline_code ? { decline_code: err.decline_code } : {}),
    });
  }
  throw err;
}

/** What an intent's state means to the checkout. requires_capture and processing count as paid or paying. */
function outcome(intent: Stripe.PaymentIntent): ChargeResult {
  switch (intent.status) {
    case 'succeeded':
    case 'requires_capture':
      return { status: 'succeeded', ref: intent.id };
    case 'processing':
      return { status: 'processing', ref: intent.id };
    case 'requires_action':
      throw paymentError('intent_requires_action', 'This payment needs to be confirmed.', {
        intent_id: intent.id,
        client_secret: intent.client_secret,
      });
    default: {
      const last = intent.last_payment_error;
      const code = (
        last?.code && KNOWN_CODES.has(last.code as ErrorCode) ? last.code : 'payment_intent_authentication_failure'
      ) as ErrorCode;
      throw paymentError(code, last?.message ?? 'The payment could not be confirmed. Please try again.', {
        provider_code: last?.code ?? null,
      });
    }
  }
}

export function lookupOutcome(intent: Stripe.PaymentIntent | null): ChargeLookup {
  if (!intent) return { status: 'none' };
  if (intent.status === 'succeeded' || intent.status === 'requires_capture') return { status: 'succeeded', ref: intent.id };
  if (intent.status === 'processing') return { status: 'processing', ref: intent.id };
  if (intent.status === 'requires_action') return { status: 'requires_action', ref: intent.id };
  return { status: 'none' };
}

/**
 * The Stripe Customer an identity's kept cards are attached to (table gateway_customer), made the first time one is
 * kept. The customer is created under a key of the identity, so two checkouts at once make one; the insert that loses
 * the race reads the winner's row.
 */
async function customerOf(stripe: Stripe, req: ChargeRequest, create: boolean): Promise<string | null> {
  if (!req.identityId) return null;
  const row = () =>
    req.db
      .selectFrom('gateway_customer')
      .select('customer_ref')
      .where('seller_id', '=', req.sellerId)
      .where('identity_id', '=', req.identityId!)
      .where('gateway_id', '=', 'stripe')
      .executeTakeFirst();
  const found = await row();
  if (found || !create) return found?.customer_ref ?? null;
  // No e-mail or name goes to Stripe: the customer only groups the cards; ids say whose they are.
  const customer = await stripe.customers.create(
    { metadata: { seller_id: req.sellerId, identity_id: req.identityId } },
    { idempotencyKey: `customer-${req.sellerId}-${req.identityId}` },
  );
  await req.db
    .insertInto('gateway_customer')
    .values({ seller_id: req.sellerId, identity_id: req.identityId, gateway_id: 'stripe', customer_ref: customer.id })
    .onConflict((oc) => oc.columns(['seller_id', 'identity_id', 'gateway_id']).doNothing())
    .execute();
  return (await row())!.customer_ref;
}

/** What may be shown of the card the intent kept (setup_future_usage): never its number. */
async function keptMethod(stripe: Stripe, intent: Stripe.PaymentIntent): Promise<ReusableMethod | undefined> {
  const pmId = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
  if (!pmId) return undefined;
  const pm = await stripe.paymentMethods.retrieve(pmId);
  if (!pm.card || !pm.customer) return undefined;
  return { token: pm.id, brand: pm.card.brand, last4: pm.card.last4, exp_month: pm.card.exp_month, exp_year: pm.card.exp_year };
}

/**
 * Kept cards (issue 22): a charge asked to keep the card (savePaymentMethod) runs its intent for the identity's
 * Customer with `setup_future_usage: off_session`, so Stripe attaches the PaymentMethod to the Customer; the result's
 * `reusable` names it. A kept card is charged by naming the Customer and the PaymentMethod (`off_session: true` for
 * the renewal job, where nobody can confirm); Stripe refuses a PaymentMethod of another Customer.
 */
export function createStripeGateway(settings: GatewaySettings): Gateway {
  const stripe = () => stripeClient(settings);
  return {
    id: 'stripe',
    // Stripe's own minimums: 0.50 in most currencies, GBP 0.30 (spec section 5).
    accepts: (amount, currency) => cardAmountSupported(amount, currency),
    async charge(req: ChargeRequest) {
      const source = req.gatewayData.source;
      let intent: Stripe.PaymentIntent;
      try {
        if (typeof source === 'string' && source.startsWith('pi_')) {
          // The browser confirmed the intent: read what Stripe says of it, and that it is this attempt's own.
          intent = await stripe().paymentIntents.retrieve(source);
          if (intent.metadata?.attempt_key !== req.idempotencyKey)
            throw paymentError('payment_intent_authentication_failure', 'The payment could not be confirmed. Please try again.');
          if (intent.amount !== req.amount || intent.currency !== req.currency.toLowerCase())
            throw paymentError('payment_intent_amount_mismatch', 'The amount changed since the payment was started.');
        } else {
          const method = req.savedToken ?? req.gatewayData.payment_method;
          if (typeof method !== 'string' || !method)
            throw paymentError('payment_failed', 'Please enter your payment details.', { provider_code: 'payment_method_missing' });
          const keep = Boolean(req.savePaymentMethod && !req.savedToken);
          const customer = await customerOf(stripe(), req, keep);
          if (req.savedToken && !customer)
            throw paymentError('card_declined', 'The saved card is no longer available.', { decline_code: 'payment_method_missing' });
          intent = await stripe().paymentIntents.create(
            {
              amount: req.amount,
              currency: req.currency.toLowerCase(),
              payment_method: method,
              confirm: true,
              ...(customer && (keep || req.savedToken) ? { customer } : {}),
              ...(keep ? { setup_future_usage: 'off_session' as const } : {}),
              ...(req.offSession
                ? { off_session: true, payment_method_types: ['card'] }
                : // The browser handles any next action (3-D Secure) itself; redirect-only methods are not offered.
                  { automatic_payment_methods: { enabled: true, allow_redirects: 'never' as const } }),
              metadata: { cart_id: req.cartId, cart_number: req.reference ?? '', attempt_key: req.idempotencyKey },
              ...(req.reference ? { description: `Cart ${req.reference}` } : {}),
            },
            { idempotencyKey: req.idempotencyKey },
          );
        }
      } catch (err) {
        refusal(err);
      }
      const result = outcome(intent);
      if (!req.savePaymentMethod || req.savedToken || result.status !== 'succeeded') return result;
      // The money is taken; failing to read the kept card back only means it is not offered next time.
      const reusable = await keptMethod(stripe(), intent).catch(() => undefined);
      return reusable ? { ...result, reusable } : result;
    },
    async lookup({ idempotencyKey, ref }) {
      if (ref?.startsWith('pi_')) return lookupOutcome(await stripe().paymentIntents.retrieve(ref));
      // Cut before the answer was recorded: find the intent this attempt made by its key in the metadata.
      const found = await stripe().paymentIntents.search({
        query: `metadata['attempt_key']:'${idempotencyKey.replace(/'/g, '')}'`,
        limit: 1,
      });
      return lookupOutcome(found.data[0] ?? null);
    },
    async refund({ ref, amount, idempotencyKey }) {
      try {
        await stripe().refunds.create({ payment_intent: ref, amount }, { idempotencyKey });
      } catch (err) {
        // Refunded already (by hand in the dashboard, or an earlier try whose answer was lost): nothing is owed.
        if (err instanceof Stripe.errors.StripeError && err.code === 'charge_already_refunded') return;
        // Refused for good (more than is left of the charge, a charge Stripe does not know): the box office's to settle.
        if (err instanceof Stripe.errors.StripeInvalidRequestError)
          throw paymentError('payment_failed', err.message, { provider_code: err.code ?? 'invalid_request' });
        throw err;
      }
    },
    async forget({ token }) {
      try {
        await stripe().paymentMethods.detach(token);
      } catch (err) {
        // Detached already (by hand, or an earlier try): nothing left to forget.
        if (err instanceof Stripe.errors.StripeInvalidRequestError) return;
        throw err;
      }
    },
  };
}

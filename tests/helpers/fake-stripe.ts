import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A small Stripe-shaped HTTP server for the tests (issue 14): the server's `stripe` package talks to it through
 * STRIPE_API_BASE exactly as it would to api.stripe.com. It answers PaymentIntent create (confirmed at once, under the
 * Idempotency-Key), retrieve and search, and refunds, with Stripe's documented shapes. Test payment methods, named as
 * Stripe's test tokens are:
 *   pm_card_visa                     succeeded
 *   pm_card_threeDSecure2Required    requires_action (confirm with `completeAction`)
 *   pm_card_chargeDeclined           402 card_error card_declined (generic_decline)
 *   pm_card_chargeDeclinedIncorrectCvc 402 card_error incorrect_cvc
 *   pm_sepa_debit                    processing (settle with `setStatus`)
 * `event()` builds an event as Stripe sends it; `sign()` signs a payload with the package's own test helper.
 *
 * Kept cards (issue 22), as Stripe does them: `POST /v1/customers`; an intent with `customer` and
 * `setup_future_usage` that succeeds attaches a new PaymentMethod (pm_...) to that customer, named by the intent's
 * `payment_method`; `GET /v1/payment_methods/{id}` shows its `card` (brand, last4, exp_month, exp_year) and `customer`;
 * an intent naming an attached PaymentMethod needs its customer (another customer, or none, is a 400), and
 * `off_session: true` with a card that asks for 3-D Secure fails with `authentication_required`;
 * `POST /v1/payment_methods/{id}/detach` detaches it, after which it cannot be charged.
 */
export interface FakeStripe {
  url: string;
  intents: Map<string, Stripe.PaymentIntent>;
  refunds: Array<{ id: string; payment_intent: string; amount: number }>;
  customers: Map<string, Stripe.Customer>;
  paymentMethods: Map<string, Stripe.PaymentMethod>;
  /** Requests seen, by method and path: idempotent replays included. */
  requests: Array<{ method: string; path: string; idempotencyKey?: string; body: Record<string, any> }>;
  completeAction(id: string, outcome?: 'succeeded' | 'failed'): void;
  setStatus(id: string, status: Stripe.PaymentIntent.Status): void;
  event(type: string, intentId: string): string;
  sign(payload: string, secret: string, timestamp?: number): string;
  close(): Promise<void>;
}

/** Stripe's form encoding back into objects: `metadata[cart_id]=x` -> { metadata: { cart_id: 'x' } }. */
function parseForm(text: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node = out;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) node[p] = value;
      else node = node[p] ??= {};
    });
  }
  return out;
}

const cardError = (code: string, message: string, decline_code: string | undefined, intent: Stripe.PaymentIntent) => ({
  error: { type: 'card_error', code, message, ...(decline_code ? { decline_code } : {}), payment_intent: intent },
});

export async function startFakeStripe(): Promise<FakeStripe> {
  const intents = new Map<string, Stripe.PaymentIntent>();
  const refunds: FakeStripe['refunds'] = [];
  const requests: FakeStripe['requests'] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  const customers = new Map<string, Stripe.Customer>();
  const paymentMethods = new Map<string, Stripe.PaymentMethod>();
  /** The test token an attached PaymentMethod was made from: it behaves as that card on later charges. */
  const madeFrom = new Map<string, string>();
  const CARDS: Record<string, { brand: string; last4: string }> = {
    pm_card_visa: { brand: 'visa', last4: '4242' },
    pm_card_mastercard: { brand: 'mastercard', last4: '4444' },
    pm_card_threeDSecure2Required: { brand: 'visa', last4: '3155' },
    pm_card_chargeDeclined: { brand: 'visa', last4: '0002' },
    pm_card_chargeDeclinedIncorrectCvc: { brand: 'visa', last4: '0127' },
  };
  const invalid = (message: string, code?: string) => ({
    status: 400,
    body: { error: { type: 'invalid_request_error', ...(code ? { code } : {}), message } },
  });

  /** Which card behaviour a PaymentMethod of the request has, or the refusal Stripe gives for using it there. */
  function cardOf(body: Record<string, any>): { token: string } | { status: number; body: unknown } {
    const pm = String(body.payment_method ?? '');
    if (body.customer && !customers.has(body.customer)) return invalid(`No such customer: '${body.customer}'`, 'resource_missing');
    const attached = paymentMethods.get(pm);
    if (!attached) return { token: pm };
    if (!attached.customer)
      return invalid(
        'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again.',
      );
    if (attached.customer !== body.customer)
      return invalid(
        body.customer
          ? 'The provided PaymentMethod belongs to a different Customer.'
          : 'The provided PaymentMethod belongs to a Customer, but you did not provide a Customer.',
      );
    return { token: madeFrom.get(pm)! };
  }

  /** setup_future_usage with a customer: Stripe attaches a new PaymentMethod made from the card the intent used. */
  function attach(intent: Stripe.PaymentIntent, token: string, customer: string) {
    const card = CARDS[token];
    if (!card) return;
    const pmId = id('pm');
    const year = new Date().getUTCFullYear() + 3;
    paymentMethods.set(pmId, {
      id: pmId,
      object: 'payment_method',
      type: 'card',
      card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: year, funding: 'credit', country: 'US' },
      customer,
      billing_details: { address: null, email: null, name: null, phone: null },
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      metadata: {},
    } as unknown as Stripe.PaymentMethod);
    madeFrom.set(pmId, token);
    Object.assign(intent, { payment_method: pmId });
  }
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

  function createIntent(body: Record<string, any>): { status: number; body: unknown } {
    const card = cardOf(body);
    if ('status' in card) return card;
    const intentId = id('pi');
    const intent = {
      id: intentId,
      object: 'payment_intent',
      amount: Number(body.amount),
      amount_received: 0,
      currency: body.currency,
      status: 'requires_payment_method',
      client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
      metadata: body.metadata ?? {},
      description: body.description ?? null,
      payment_method: body.payment_method ?? null,
      customer: body.customer ?? null,
      setup_future_usage: body.setup_future_usage ?? null,
      next_action: null,
      last_payment_error: null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    } as unknown as Stripe.PaymentIntent;
    intents.set(intentId, intent);
    const pm = card.token;
    const offSession = body.off_session === 'true';
    const fail = (code: string, message: string, decline?: string) => {
      Object.assign(intent, { last_payment_error: { type: 'card_error', code, message, decline_code: decline } });
      return { status: 402, body: cardError(code, message, decline, intent) };
    };
    if (pm === 'pm_card_visa' || pm === 'pm_card_mastercard') {
      Object.assign(intent, { status: 'succeeded', amount_received: intent.amount });
      if (body.customer && body.setup_future_usage) attach(intent, pm, body.customer);
    } else if (pm === 'pm_card_threeDSecure2Required' && offSession)
      return fail(
        'authentication_required',
        'Your card was declined. This transaction requires authentication.',
        'authentication_required',
      );
    else if (pm === 'pm_card_threeDSecure2Required')
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk', use_stripe_sdk: {} } });
    else if (pm === 'pm_sepa_debit') Object.assign(intent, { status: 'processing' });
    else if (pm === 'pm_card_chargeDeclined') return fail('card_declined', 'Your card was declined.', 'generic_decline');
    else if (pm === 'pm_card_chargeDeclinedIncorrectCvc') return fail('incorrect_cvc', "Your card's security code is incorrect.");
    else
      return {
        status: 400,
        body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${pm}'` } },
      };
    return { status: 200, body: intent };
  }

  function refund(body: Record<string, any>): { status: number; body: unknown } {
    const intent = intents.get(body.payment_intent);
    if (!intent)
      return {
        status: 404,
        body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } },
      };
    // As Stripe does: refunds of parts of a charge until nothing is left of it.
    const refunded = refunds.filter((r) => r.payment_intent === intent.id).reduce((sum, r) => sum + r.amount, 0);
    if (refunded >= intent.amount)
      return {
        status: 400,
        body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge has already been refunded.' } },
      };
    const amount = Number(body.amount ?? intent.amount - refunded);
    if (refunded + amount > intent.amount)
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${intent.amount - refunded})`,
          },
        },
      };
    const r = {
      id: id('re'),
      object: 'refund',
      payment_intent: intent.id,
      amount,
      status: 'succeeded',
    };
    refunds.push(r);
    return { status: 200, body: r };
  }

  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = parseForm(text);
      const key = req.headers['idempotency-key']?.toString();
      requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key, body });
      const send = (r: { status: number; body: unknown }) => {
        res.writeHead(r.status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(r.body));
      };
      if (!req.headers.authorization?.startsWith('Bearer sk_test_'))
        return send({ status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } });
      if (req.method === 'POST' && key && replies.has(`${url.pathname}:${key}`)) return send(replies.get(`${url.pathname}:${key}`)!);
      let reply: { status: number; body: unknown };
      const one = url.pathname.match(/^\/v1\/payment_intents\/(pi_[0-9a-f]+)$/);
      const pmPath = url.pathname.match(/^\/v1\/payment_methods\/(pm_[0-9A-Za-z_]+?)(\/detach)?$/);
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') reply = createIntent(body);
      else if (req.method === 'GET' && url.pathname === '/v1/payment_intents/search') {
        const wanted = /metadata\['attempt_key'\]:'([^']*)'/.exec(url.searchParams.get('query') ?? '')?.[1];
        const data = [...intents.values()].filter((i) => i.metadata.attempt_key === wanted);
        reply = { status: 200, body: { object: 'search_result', data, has_more: false, next_page: null, url: url.pathname } };
      } else if (req.method === 'GET' && one) {
        const intent = intents.get(one[1]);
        reply = intent
          ? { status: 200, body: intent }
          : {
              status: 404,
              body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } },
            };
      } else if (req.method === 'POST' && url.pathname === '/v1/refunds') reply = refund(body);
      else if (req.method === 'POST' && url.pathname === '/v1/customers') {
        const customer = { id: id('cus'), object: 'customer', metadata: body.metadata ?? {}, email: body.email ?? null, livemode: false };
        customers.set(customer.id, customer as unknown as Stripe.Customer);
        reply = { status: 200, body: customer };
      } else if (pmPath && (req.method === 'GET' || (req.method === 'POST' && pmPath[2]))) {
        const pm = paymentMethods.get(pmPath[1]);
        if (!pm)
          reply = {
            status: 404,
            body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${pmPath[1]}'` } },
          };
        else if (!pmPath[2]) reply = { status: 200, body: pm };
        else if (!pm.customer)
          reply = invalid('The payment method you provided is not attached to a customer so detachment is impossible.');
        else {
          Object.assign(pm, { customer: null });
          reply = { status: 200, body: pm };
        }
      } else
        reply = {
          status: 404,
          body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } },
        };
      if (req.method === 'POST' && key) replies.set(`${url.pathname}:${key}`, reply);
      send(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const signer = new Stripe('sk_test_signer');

  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    refunds,
    customers,
    paymentMethods,
    requests,
    completeAction(intentId, outcome = 'succeeded') {
      const intent = intents.get(intentId)!;
      if (outcome === 'succeeded') Object.assign(intent, { status: 'succeeded', next_action: null, amount_received: intent.amount });
      else
        Object.assign(intent, {
          status: 'requires_payment_method',
          next_action: null,
          last_payment_error: { type: 'card_error', code: 'payment_intent_authentication_failure', message: 'Authentication failed.' },
        });
    },
    setStatus(intentId, status) {
      Object.assign(intents.get(intentId)!, {
        status,
        ...(status === 'succeeded' ? { amount_received: intents.get(intentId)!.amount } : {}),
      });
    },
    event(type, intentId) {
      return JSON.stringify({
        id: id('evt'),
        object: 'event',
        type,
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object: intents.get(intentId) },
      });
    },
    sign(payload, secret, timestamp) {
      return signer.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

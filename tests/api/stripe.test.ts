import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';
import type { Deps } from '../../server/deps';
import { expireCarts } from '../../server/services/cart/expiry';
import { claim } from '../../server/services/checkout/claim';
import { reconcilePayments } from '../../server/services/checkout';
import { gatewayFor } from '../../server/services/payments';
import { parseMoney } from '../../src/domain/money';
import { runDueJobs } from '../../server/jobs/runner';
import { sql } from 'kysely';

/**
 * The Stripe gateway (issue 14) against a Stripe-shaped server (tests/helpers/fake-stripe.ts), through the `stripe`
 * package as production runs it: checkout, 3-D Secure, declines, a debit that clears on the webhook, the webhook's
 * signature, a webhook sent three times or racing the browser's confirmation (booked once), and a payment that succeeds
 * after its hold expired with the places gone (refunded, never oversold).
 */
const SECRET = 'whsec_test_secret';

describeEachDatabase('stripe gateway', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let deps: Deps;
  let stripe: FakeStripe;
  const clock = testClock();
  const db = () => ctx().db;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    fx = await insertCartFixture(db(), { now: clock.now() });
    deps = testDeps(ctx(), clock.now);
    deps.config = {
      ...deps.config,
      stripeSecretKey: 'sk_test_fake',
      stripePublishableKey: 'pk_test_fake',
      stripeWebhookSecret: SECRET,
      stripeApiBase: stripe.url,
    };
    app = await buildTestApp(deps);
  });
  afterAll(async () => {
    await app?.close();
    await stripe?.close();
  });

  async function guestCart(opts: { session?: string } = {}) {
    const b = new Browser(app);
    const session = opts.session ?? (await addSession(db(), fx, { from: clock.now() }));
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: session }],
    });
    expect(cart.status).toBe(200);
    const user = await b.post(`/api/user?_seller=${fx.slug}`, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' });
    const row = cart.body.cart._data[0];
    return {
      b,
      cartId: row.id as string,
      cartNumber: row.cart_number as string,
      identityId: user.body.identity._data[0].id as string,
      outstanding: row.cart_fees.grand_totals.total_outstanding as string,
      gateway: row.cart_fees.gateway_id as string,
    };
  }
  type Cart = Awaited<ReturnType<typeof guestCart>>;
  const pay = (g: Cart, gateway_data: Record<string, unknown>, gateway_id = 'stripe') =>
    g.b.post(`/api/cart/${g.cartId}/guest_checkout`, {
      amount: g.outstanding,
      gateway_id,
      gateway_data,
      guest_identity_id: g.identityId,
      send_email: true,
    });
  const webhook = (payload: string, signature?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload,
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    });
  const send = (type: string, intentId: string) => {
    const payload = stripe.event(type, intentId);
    return webhook(payload, stripe.sign(payload, SECRET));
  };
  const ordersOf = (cartId: string) => db().selectFrom('ticket_order').selectAll().where('cart_id', '=', cartId).execute();
  const attemptsOf = (cartId: string) =>
    db().selectFrom('payment').selectAll().where('cart_id', '=', cartId).orderBy('occurred_on').execute();
  const cartOf = (id: string) => db().selectFrom('cart').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const intentOf = (cartId: string) => [...stripe.intents.values()].filter((i) => i.metadata.cart_id === cartId);

  it('selects Stripe for a seller when the keys are set, and GET config carries the publishable key', async () => {
    const g = await guestCart();
    expect(g.gateway).toBe('stripe');
    const res = await g.b.get(`/api/config?_seller=${fx.slug}&key._in=payments`);
    expect(res.status).toBe(200);
    expect(res.body.config._data).toEqual([
      expect.objectContaining({ key: 'payments', value: { gateway: 'stripe', publishable_key: 'pk_test_fake' } }),
    ]);
    // A test card never pays a Stripe seller's order.
    const test = await pay(g, { card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' } }, 'test');
    expect(test.status).toBe(400);
    expect(test.body._data[0]._code).toBe('gateway_not_found');
  });

  it('charges the server total through a PaymentIntent under the attempt key and books the order', async () => {
    const g = await guestCart();
    const res = await pay(g, { payment_method: 'pm_card_visa' });
    expect(res.status).toBe(200);
    expect(res.body.ticket_order._data).toHaveLength(1);
    const [intent] = intentOf(g.cartId);
    expect(intent.amount).toBe(parseMoney(g.outstanding));
    expect(intent.currency).toBe('usd');
    expect(intent.metadata).toMatchObject({ cart_id: g.cartId, cart_number: g.cartNumber });
    const [attempt] = await attemptsOf(g.cartId);
    expect(attempt).toMatchObject({ status: 'succeeded', gateway_id: 'stripe', gateway_ref: intent.id });
    const create = stripe.requests.find((r) => r.path === '/v1/payment_intents' && r.body.metadata?.cart_id === g.cartId);
    expect(create?.idempotencyKey).toBe(attempt.idempotency_key);
    // A webhook for it later finds it booked: nothing more.
    expect((await send('payment_intent.succeeded', intent.id)).statusCode).toBe(200);
    expect(await ordersOf(g.cartId)).toHaveLength(1);
  });

  it('pays a wallet of the Express Checkout Element through the same checkout call as a card, the wallet in the metadata', async () => {
    const g = await guestCart();
    // An Apple Pay or Google Pay PaymentMethod is a card PaymentMethod to the server; the browser names the wallet.
    const res = await pay(g, { payment_method: 'pm_card_visa', wallet: 'apple' });
    expect(res.status).toBe(200);
    expect(res.body.ticket_order._data).toHaveLength(1);
    const [intent] = intentOf(g.cartId);
    expect(intent.amount).toBe(parseMoney(g.outstanding));
    expect(intent.metadata).toMatchObject({ cart_id: g.cartId, wallet: 'apple' });
    // 'none' is a typed card: nothing is added; anything else is refused before a charge.
    const card = await guestCart();
    expect((await pay(card, { payment_method: 'pm_card_visa', wallet: 'none' })).status).toBe(200);
    expect(intentOf(card.cartId)[0].metadata).not.toHaveProperty('wallet');
    const odd = await guestCart();
    const refused = await pay(odd, { payment_method: 'pm_card_visa', wallet: 'paypal' });
    expect(refused.status).toBe(400);
    expect(refused.body._data[0]._code).toBe('validation_failed');
    expect(intentOf(odd.cartId)).toHaveLength(0);
  });

  it("answers a decline with the provider's code and message, and the cart stays payable", async () => {
    const g = await guestCart();
    const res = await pay(g, { payment_method: 'pm_card_chargeDeclined' });
    expect(res.status).toBe(402);
    expect(res.body._data[0]).toMatchObject({ _code: 'card_declined', _context: 'payment' });
    expect((await cartOf(g.cartId)).state).toBe('pending');
    const ok = await pay(g, { payment_method: 'pm_card_visa' });
    expect(ok.status).toBe(200);
  });

  it('completes a 3-D Secure card after the browser confirms the intent', async () => {
    const g = await guestCart();
    const res = await pay(g, { payment_method: 'pm_card_threeDSecure2Required' });
    expect(res.status).toBe(402);
    const extra = res.body._data[0]._extra;
    expect(res.body._data[0]._code).toBe('intent_requires_action');
    expect(extra.client_secret).toBe(stripe.intents.get(extra.intent_id)!.client_secret);
    // Retrying before the confirmation is not a payment.
    const early = await pay(g, { source: extra.intent_id });
    expect(early.status).toBe(402);
    stripe.completeAction(extra.intent_id);
    const done = await pay(g, { source: extra.intent_id });
    expect(done.status).toBe(200);
    expect(await ordersOf(g.cartId)).toHaveLength(1);
    expect(intentOf(g.cartId)).toHaveLength(1);
  });

  it("refuses another cart's intent as a source", async () => {
    const a = await guestCart();
    const paid = await pay(a, { payment_method: 'pm_card_visa' });
    expect(paid.status).toBe(200);
    const b = await guestCart();
    const res = await pay(b, { source: intentOf(a.cartId)[0].id });
    expect(res.status).toBe(402);
    expect(await ordersOf(b.cartId)).toHaveLength(0);
  });

  it('leaves a processing debit pending (202) and books it once when the same webhook comes three times', async () => {
    const g = await guestCart();
    const res = await pay(g, { payment_method: 'pm_sepa_debit' });
    expect(res.status).toBe(202);
    expect(res.body.pending_payment._data[0]).toEqual({ cart_id: g.cartId, cart_number: g.cartNumber, status: 'processing' });
    expect((await cartOf(g.cartId)).state).toBe('checking_out');
    const [intent] = intentOf(g.cartId);
    expect((await send('payment_intent.processing', intent.id)).statusCode).toBe(200);
    expect(await ordersOf(g.cartId)).toHaveLength(0);

    stripe.setStatus(intent.id, 'succeeded');
    const payload = stripe.event('payment_intent.succeeded', intent.id);
    const signature = stripe.sign(payload, SECRET);
    const answers = await Promise.all([webhook(payload, signature), webhook(payload, signature), webhook(payload, signature)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(await ordersOf(g.cartId)).toHaveLength(1);
    expect((await attemptsOf(g.cartId)).map((a) => a.status)).toEqual(['succeeded']);
    // Seen before: still 2xx.
    const again = await webhook(payload, stripe.sign(payload, SECRET));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    // The pending screen sees the order on the cart.
    const cart = await g.b.get(`/api/cart/${g.cartId}?_seller=${fx.slug}`);
    expect(cart.body.cart._data[0].ticket_order_ids).toHaveLength(1);
    const booked = await db().selectFrom('ticket').select('state').where('cart_id', '=', g.cartId).execute();
    expect(booked.map((t) => t.state)).toEqual(['booked']);
  });

  it('releases the cart when the debit fails', async () => {
    const g = await guestCart();
    expect((await pay(g, { payment_method: 'pm_sepa_debit' })).status).toBe(202);
    const [intent] = intentOf(g.cartId);
    stripe.completeAction(intent.id, 'failed');
    expect((await send('payment_intent.payment_failed', intent.id)).statusCode).toBe(200);
    expect((await cartOf(g.cartId)).state).toBe('pending');
    expect((await attemptsOf(g.cartId)).map((a) => a.status)).toEqual(['failed']);
    // A late, out-of-order "processing" changes nothing.
    expect((await send('payment_intent.processing', intent.id)).statusCode).toBe(200);
    expect((await cartOf(g.cartId)).state).toBe('pending');
  });

  it('keeps the settling of a webhook as a durable job while Stripe cannot be reached; a runner books it later', async () => {
    const g = await guestCart();
    expect((await pay(g, { payment_method: 'pm_sepa_debit' })).status).toBe(202);
    const [intent] = intentOf(g.cartId);
    stripe.setStatus(intent.id, 'succeeded');
    stripe.down = true;
    try {
      // The event is ours once recorded: 2xx, and Stripe need not send it again.
      expect((await send('payment_intent.succeeded', intent.id)).statusCode).toBe(200);
      expect(await ordersOf(g.cartId)).toHaveLength(0);
      await runDueJobs(deps);
    } finally {
      stripe.down = false;
    }
    const jobOf = () =>
      db()
        .selectFrom('job')
        .selectAll()
        .where(sql<string>`payload->>'intent_id'`, '=', intent.id)
        .executeTakeFirst();
    expect(await jobOf()).toMatchObject({ kind: 'stripe_intent', state: 'queued', attempts: 1 });
    // Not before its backoff; then a runner (any process) books it and owes the order's mail.
    await runDueJobs(deps);
    expect(await ordersOf(g.cartId)).toHaveLength(0);
    clock.advance(10);
    await runDueJobs(deps);
    const [order] = await ordersOf(g.cartId);
    expect(order).toBeDefined();
    expect(await jobOf()).toBeUndefined();
    const mail = await db().selectFrom('mail_outbox').select('meta').where('kind', '=', 'order_tickets').execute();
    expect(mail.some((m) => (m.meta as Record<string, unknown>).ticket_order_id === order.id)).toBe(true);
  });

  it('answers 400 to a missing, wrong or stale signature and changes nothing', async () => {
    const g = await guestCart();
    expect((await pay(g, { payment_method: 'pm_sepa_debit' })).status).toBe(202);
    const [intent] = intentOf(g.cartId);
    stripe.setStatus(intent.id, 'succeeded');
    const payload = stripe.event('payment_intent.succeeded', intent.id);
    const stale = Math.floor(Date.now() / 1000) - 3600;
    for (const signature of [undefined, stripe.sign(payload, 'whsec_wrong'), stripe.sign(payload, SECRET, stale), 'garbage']) {
      const res = await webhook(payload, signature);
      expect(res.statusCode).toBe(400);
      expect(res.json()._data[0]._code).toBe('webhook_signature_invalid');
    }
    // A body changed after signing.
    const forged = await webhook(payload.replace('"livemode":false', '"livemode":true'), stripe.sign(payload, SECRET));
    expect(forged.statusCode).toBe(400);
    expect(await ordersOf(g.cartId)).toHaveLength(0);
    expect((await cartOf(g.cartId)).state).toBe('checking_out');
    expect((await send('payment_intent.succeeded', intent.id)).statusCode).toBe(200);
    expect(await ordersOf(g.cartId)).toHaveLength(1);
  });

  it("books once when the webhook races the browser's confirmed retry", async () => {
    for (let round = 0; round < 3; round++) {
      const g = await guestCart();
      const res = await pay(g, { payment_method: 'pm_card_threeDSecure2Required' });
      const intentId = res.body._data[0]._extra.intent_id as string;
      stripe.completeAction(intentId);
      const [browser, hook] = await Promise.all([pay(g, { source: intentId }), send('payment_intent.succeeded', intentId)]);
      expect(hook.statusCode === 200 || hook.statusCode === 500, `webhook answered ${hook.statusCode}`).toBe(true);
      // The browser either booked it or hears that the cart was booked (by the webhook) or is being checked out.
      expect([200, 409]).toContain(browser.status);
      if (hook.statusCode !== 200) expect((await send('payment_intent.succeeded', intentId)).statusCode).toBe(200);
      expect(await ordersOf(g.cartId)).toHaveLength(1);
      expect((await attemptsOf(g.cartId)).map((a) => a.status)).toEqual(['succeeded']);
      expect(stripe.refunds.filter((r) => r.payment_intent === intentId)).toHaveLength(0);
    }
  });

  it('books from the webhook when the shopper confirmed 3-D Secure and closed the tab', async () => {
    const g = await guestCart();
    const res = await pay(g, { payment_method: 'pm_card_threeDSecure2Required' });
    const intentId = res.body._data[0]._extra.intent_id as string;
    stripe.completeAction(intentId);
    expect((await send('payment_intent.succeeded', intentId)).statusCode).toBe(200);
    expect(await ordersOf(g.cartId)).toHaveLength(1);
    expect((await cartOf(g.cartId)).state).toBe('completed');
    // The browser coming back late hears the cart was booked.
    const late = await pay(g, { source: intentId });
    expect(late.status).toBe(409);
    expect(late.body._data[0]._code).toBe('cart_booked');
  });

  it('refunds, never oversells, a payment that succeeds after its hold expired and the place was sold', async () => {
    const session = await addSession(db(), fx, { from: clock.now(), capacity: 1 });
    const g = await guestCart({ session });
    const res = await pay(g, { payment_method: 'pm_card_threeDSecure2Required' });
    const intentId = res.body._data[0]._extra.intent_id as string;
    // The hold runs out while the shopper is at their bank; the sweeper gives the place back and someone takes it.
    await db()
      .updateTable('cart')
      .set({ expires_at: new Date(clock.now().getTime() - 1000) })
      .where('id', '=', g.cartId)
      .execute();
    await db()
      .transaction()
      .execute((trx) => expireCarts(trx, clock.now(), { cartIds: [g.cartId] }));
    expect((await cartOf(g.cartId)).state).toBe('expired');
    const other = await guestCart({ session });
    expect((await pay(other, { payment_method: 'pm_card_visa' })).status).toBe(200);

    stripe.completeAction(intentId);
    expect((await send('payment_intent.succeeded', intentId)).statusCode).toBe(200);
    expect(await ordersOf(g.cartId)).toHaveLength(0);
    expect((await attemptsOf(g.cartId)).map((a) => a.status)).toEqual(['refunded']);
    expect(stripe.refunds.filter((r) => r.payment_intent === intentId)).toEqual([
      expect.objectContaining({ amount: parseMoney(g.outstanding) }),
    ]);
    const sold = await db()
      .selectFrom('ticket')
      .select('id')
      .where('event_session_id', '=', session)
      .where('state', '=', 'booked')
      .execute();
    expect(sold).toHaveLength(1);
    // The same event again: still one refund.
    expect((await send('payment_intent.succeeded', intentId)).statusCode).toBe(200);
    expect(stripe.refunds.filter((r) => r.payment_intent === intentId)).toHaveLength(1);
  });

  it('the reconciler finds a charge whose answer was lost by its attempt key, books it, and leaves a clearing debit alone', async () => {
    const seller = await db().selectFrom('seller').selectAll().where('slug', '=', fx.slug).executeTakeFirstOrThrow();
    const gateway = gatewayFor(deps.config, 'stripe');
    /** What a process killed right after Stripe charged leaves: the cart claimed, the attempt pending with no reference. */
    async function cut(method: string) {
      const g = await guestCart();
      const attempt = await db()
        .transaction()
        .execute((trx) =>
          claim(trx, deps, {
            cartId: g.cartId,
            sellerId: seller.id,
            amount: parseMoney(g.outstanding)!,
            gateway,
            identityId: g.identityId,
            sendEmail: true,
            source: null,
          }),
        );
      await gateway.charge({
        db: db(),
        sellerId: seller.id,
        cartId: g.cartId,
        amount: attempt.amount,
        currency: 'USD',
        idempotencyKey: attempt.idempotency_key,
        gatewayData: { payment_method: method },
        now: clock.now(),
      });
      return g;
    }
    const paid = await cut('pm_card_visa');
    const clearing = await cut('pm_sepa_debit');
    const report = await reconcilePayments(deps, { olderThanMs: -60_000 });
    expect(report).toMatchObject({ booked: 1, waiting: 1, unreachable: 0 });
    expect(await ordersOf(paid.cartId)).toHaveLength(1);
    expect(await ordersOf(clearing.cartId)).toHaveLength(0);
    expect((await cartOf(clearing.cartId)).state).toBe('checking_out');
  });
});

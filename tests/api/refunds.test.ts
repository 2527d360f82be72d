import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, ECOMM, buildTestApp } from '../helpers/app';
import { AuthBrowser, addUser } from '../helpers/auth';
import { SELLER, TEST_CARD, demoSelfService } from '../helpers/demo-orders';
import { setUnsafeSkipCancelGuardForTests } from '../../server/services/self-edit';
import { reconcilePayments } from '../../server/services/checkout';
import type { Deps } from '../../server/deps';
import { startFakeStripe } from '../helpers/fake-stripe';

/**
 * Cancelling paid tickets (issue 17): where the seller's edit_order rules allow it (`cancel_paid_tickets`), a visitor
 * cancels paid tickets of a future visit; their places go back and what was paid for them goes back through the
 * gateway that took it (a gift card's part to the card's balance), once, however many cancels arrive together.
 */
describeEachDatabase('cancelling paid tickets with a refund (issue 17)', (ctx) => {
  const env = demoSelfService(ctx);
  const o = env.orders;
  const db = () => ctx().db;
  beforeEach(() => o.setRules({ mode: 'edit_order', cancel_paid_tickets: true }));
  afterEach(() => setUnsafeSkipCancelGuardForTests(false));
  afterAll(() => o.setRules({ cancel_paid_tickets: false }));

  const cancel = (b: Browser | AuthBrowser, orderId: string, tickets: string[], headers: Record<string, string> = {}) =>
    b.request('POST', `/api/ticket_order/${orderId}/cancel?${SELLER}`, { tickets }, headers);
  const codeOf = (r: { status: number; body: any }) => [r.status, r.body._data?.[0]?._code, r.body._data?.[0]?._extra?.reason];
  /** What the test gateway refunded of the charge that paid an order's cart. */
  const refundedAtGateway = async (cartId: string) => {
    const { rows } = await sql<{ sum: number; n: number }>`
      select coalesce(sum(r.amount), 0)::int as sum, count(r.*)::int as n
        from payment p join test_gateway_refund r on r.ref = p.gateway_ref
       where p.cart_id = ${cartId} and p.gateway_id = 'test'`.execute(db());
    return { sum: Number(rows[0].sum), n: Number(rows[0].n) };
  };

  it('shows the refund before, then cancels: places back, the card refunded what was paid, the cancellation mailed', async () => {
    const session = env.plain[0];
    const { b, orderId, cartId, ticketIds } = await o.buy(session, env.adult.id, 2, { email: 'refund-me@example.com' });

    // Without the seller's leave: 'You must contact us to cancel this order.'
    await o.setRules({ cancel_paid_tickets: false });
    const refused = await b.get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`);
    expect(refused.body.self_edit._data[0]).toMatchObject({ cancelable: false, reason: 'not_free', refund_amount: '0.00' });
    expect(codeOf(await cancel(b, orderId, ticketIds))).toEqual([403, 'order_not_self_editable', 'not_free']);
    await o.setRules({ cancel_paid_tickets: true });

    const shown = await b.get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`);
    expect(shown.body.self_edit._data[0]).toMatchObject({ cancelable: true, reason: null, refund_amount: '40.00' });
    const before = await o.used(session);
    const done = await cancel(b, orderId, [ticketIds[0]]);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.order_refund._data).toEqual([
      expect.objectContaining({ amount: '20.00', gateway_id: 'test', status: 'succeeded', ticket_ids: [ticketIds[0]] }),
    ]);
    expect(done.body.self_edit._data[0]).toMatchObject({ cancelable: true, refund_amount: '20.00' });
    expect(await o.used(session)).toBe(before - 1);
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 2000, n: 1 });
    const mails = await db()
      .selectFrom('mail_outbox')
      .select(['kind', 'text_body', 'html_body'])
      .where('to_address', '=', 'refund-me@example.com')
      .execute();
    expect(mails.map((m) => m.kind).sort()).toEqual(['order_cancel', 'order_tickets']);
    // The cancellation says what this cancellation refunded (one ticket of two), the purchase mail says nothing of it.
    const refundLine = /We have refunded 20\.00 USD to the way you paid\./;
    const cancelMail = mails.find((m) => m.kind === 'order_cancel')!;
    expect(cancelMail.text_body).toMatch(refundLine);
    expect(cancelMail.html_body).toMatch(refundLine);
    expect(mails.find((m) => m.kind === 'order_tickets')!.text_body).not.toMatch(/We have refunded/);

    // The rest: the charge is refunded whole and reads so at the gateway.
    expect((await cancel(b, orderId, [ticketIds[1]])).status).toBe(200);
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 4000, n: 2 });
    const charge = await db()
      .selectFrom('test_gateway_charge')
      .innerJoin('payment', 'payment.gateway_ref', 'test_gateway_charge.ref')
      .select('test_gateway_charge.status')
      .where('payment.cart_id', '=', cartId)
      .executeTakeFirstOrThrow();
    expect(charge.status).toBe('refunded');
  });

  it('promises no more than the payments have left: a refund made before is taken off the preview', async () => {
    const { b, orderId } = await o.buy(env.plain[0], env.adult.id, 2, { email: 'partly-refunded@example.com' });
    const payment = await db()
      .selectFrom('payment')
      .select(['id', 'seller_id'])
      .where('ticket_order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    // 30.00 of the 40.00 went back earlier (by the box office, at the provider).
    await db()
      .insertInto('order_refund')
      .values({
        id: randomUUID(),
        seller_id: payment.seller_id,
        ticket_order_id: orderId,
        payment_id: payment.id,
        gateway_id: 'test',
        amount: 3000,
        status: 'succeeded',
        idempotency_key: `manual:${orderId}`,
        ticket_ids: JSON.stringify([]),
        created_at: new Date(),
        updated_at: new Date(),
      })
      .execute();
    const shown = await b.get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`);
    expect(shown.body.self_edit._data[0]).toMatchObject({ cancelable: true, refund_amount: '10.00' });
  });

  it("gives a gift card's part back to the card's balance and the card's part to the card", async () => {
    const card = await db()
      .insertInto('ledger')
      .values({ seller_id: env.sellerId, number: 'GC-REFUNDTEST0000001', balance: 3000, currency: 'USD' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { b, orderId, cartId, ticketIds } = await o.buy(env.plain[1], env.adult.id, 2, {
      giftCard: { number: 'GC-REFUNDTEST0000001', amount: '30.00' },
    });
    const balance = async () =>
      (await db().selectFrom('ledger').select('balance').where('id', '=', card.id).executeTakeFirstOrThrow()).balance;
    expect(await balance()).toBe(0);
    // One ticket (20.00): the card's 10.00 first, then 10.00 of the gift card's.
    const first = await cancel(b, orderId, [ticketIds[0]]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.order_refund._data.map((r: { gateway_id: string; amount: string }) => [r.gateway_id, r.amount]).sort()).toEqual([
      ['ledger', '10.00'],
      ['test', '10.00'],
    ]);
    expect(await balance()).toBe(1000);
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 1000, n: 1 });
    expect((await cancel(b, orderId, [ticketIds[1]])).status).toBe(200);
    expect(await balance()).toBe(3000);
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 1000, n: 1 });
  });

  it('the logged-in owner may cancel; another visitor, or someone else logged in holding the link, may not', async () => {
    await addUser(db(), env.sellerId, { email: 'owner@example.com', password: 'Correct-Horse-9' });
    const owner = new AuthBrowser(env.app);
    expect((await owner.post(`/api/login?${SELLER}`, { username: 'owner@example.com', password: 'Correct-Horse-9' })).status).toBe(200);
    const cart = await owner.post(`/api/cart/modify?${SELLER}`, {
      add: [{ ticket_type_id: env.adult.id, event_session_id: env.plain[2] }],
    });
    const cartId = cart.body.cart._data[0].id;
    const paid = await owner.post(`/api/cart/${cartId}/guest_checkout`, { amount: '20.00', gateway_id: 'test', gateway_data: TEST_CARD });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const orderId = paid.body.ticket_order._data[0].id;
    const tickets = paid.body.ticket._data.map((t: { id: string }) => t.id);

    const stranger = new Browser(env.app, '10.98.0.1');
    expect(codeOf(await cancel(stranger, orderId, tickets))).toEqual([404, 'not_found', undefined]);
    await addUser(db(), env.sellerId, { email: 'someone@example.com', password: 'Correct-Horse-9' });
    const someone = new AuthBrowser(env.app);
    expect((await someone.post(`/api/login?${SELLER}`, { username: 'someone@example.com', password: 'Correct-Horse-9' })).status).toBe(200);
    expect(codeOf(await cancel(someone, orderId, tickets, await o.signed(orderId)))).toEqual([403, 'order_not_self_editable', 'logged_in']);
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 0, n: 0 });

    const mine = await cancel(owner, orderId, tickets);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 2000, n: 1 });
  });

  it('a refund whose payout was cut short is paid out by the reconciler, once', async () => {
    const { b, orderId, cartId, ticketIds } = await o.buy(env.plain[3], env.adult.id, 1);
    expect((await cancel(b, orderId, ticketIds)).status).toBe(200);
    // As if the process died between the cancellation's commit and the gateway call: the provider has no refund.
    await db().deleteFrom('test_gateway_refund').execute();
    await db()
      .updateTable('test_gateway_charge')
      .set({ status: 'succeeded', refunded_at: null })
      .where('status', '=', 'refunded')
      .execute();
    await db()
      .updateTable('order_refund')
      .set({ status: 'pending', updated_at: new Date(env.clock.now().getTime() - 3_600_000) })
      .where('ticket_order_id', '=', orderId)
      .execute();
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 0, n: 0 });
    const report = await reconcilePayments(env.deps, { olderThanMs: 60_000 });
    expect(report.refunded).toBeGreaterThanOrEqual(1);
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 2000, n: 1 });
    const row = await db().selectFrom('order_refund').select('status').where('ticket_order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(row.status).toBe('succeeded');
    await reconcilePayments(env.deps, { olderThanMs: 0 });
    expect(await refundedAtGateway(cartId)).toEqual({ sum: 2000, n: 1 });
  });

  it('a card paid through Stripe is refunded through Stripe, in parts, each part once', async () => {
    const stripe = await startFakeStripe();
    const stripeDeps: Deps = {
      ...env.deps,
      config: {
        ...env.deps.config,
        stripeSecretKey: 'sk_test_fake',
        stripePublishableKey: 'pk_test_fake',
        stripeWebhookSecret: 'whsec_fake',
        stripeApiBase: stripe.url,
      },
    };
    const stripeApp = await buildTestApp(stripeDeps);
    try {
      const b = new Browser(stripeApp, '10.97.0.1');
      const cart = await b.post(`/api/cart/modify?${SELLER}`, {
        add: [0, 1].map(() => ({ ticket_type_id: env.adult.id, event_session_id: env.plain[6] })),
      });
      const cartId = cart.body.cart._data[0].id;
      expect(cart.body.cart._data[0].cart_fees.gateway_id).toBe('stripe');
      const user = await b.post(`/api/user?${SELLER}`, { first_name: 'Stri', last_name: 'Pe', email: 'stripe-refund@example.com' });
      const paid = await b.post(`/api/cart/${cartId}/guest_checkout`, {
        amount: '40.00',
        gateway_id: 'stripe',
        gateway_data: { payment_method: 'pm_card_visa' },
        guest_identity_id: user.body.identity._data[0].id,
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const orderId = paid.body.ticket_order._data[0].id;
      const [first, second] = paid.body.ticket._data.map((t: { id: string }) => t.id);
      const intent = [...stripe.intents.values()].find((i) => i.metadata.cart_id === cartId)!;
      for (const ticket of [first, second]) {
        const done = await b.request('POST', `/api/ticket_order/${orderId}/cancel?${SELLER}`, { tickets: [ticket] });
        expect(done.status, JSON.stringify(done.body)).toBe(200);
      }
      expect(stripe.refunds.filter((r) => r.payment_intent === intent.id).map((r) => r.amount)).toEqual([2000, 2000]);
      const rows = await db().selectFrom('order_refund').select(['status', 'gateway_id']).where('ticket_order_id', '=', orderId).execute();
      expect(rows).toEqual([
        { status: 'succeeded', gateway_id: 'stripe' },
        { status: 'succeeded', gateway_id: 'stripe' },
      ]);
      // The reconciler finds nothing left to pay out: no third refund.
      await reconcilePayments(stripeDeps, { olderThanMs: 0 });
      expect(stripe.refunds.filter((r) => r.payment_intent === intent.id)).toHaveLength(2);
    } finally {
      await stripeApp.close();
      await stripe.close();
    }
  });

  for (const guard of [true, false]) {
    it(`20 cancels of one paid ticket at once refund it ${guard ? 'once' : 'more than once with the guard off (control)'}`, async () => {
      const session = env.plain[4 + (guard ? 0 : 1)];
      const { b, orderId, cartId, ticketIds } = await o.buy(session, env.adult.id, 2);
      const before = await o.used(session);
      setUnsafeSkipCancelGuardForTests(!guard);
      const headers = { ...ECOMM, 'content-type': 'application/json', cookie: b.cookie! };
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          env.app.inject({
            method: 'POST',
            url: `/api/ticket_order/${orderId}/cancel?${SELLER}`,
            headers,
            payload: { tickets: [ticketIds[0]] },
          }),
        ),
      );
      const ok = answers.filter((a) => a.statusCode === 200).length;
      const refunds = await db().selectFrom('order_refund').select('amount').where('ticket_order_id', '=', orderId).execute();
      if (guard) {
        expect(ok).toBe(1);
        expect(answers.filter((a) => a.statusCode === 409).every((a) => a.json()._data[0]._code === 'ticket_state_incorrect')).toBe(true);
        expect(refunds.map((r) => r.amount)).toEqual([2000]);
        expect(await refundedAtGateway(cartId)).toEqual({ sum: 2000, n: 1 });
        expect(await o.used(session)).toBe(before - 1);
      } else {
        expect(ok).toBeGreaterThan(1);
        expect(refunds.length).toBeGreaterThan(1);
        expect((await refundedAtGateway(cartId)).n).toBeGreaterThan(1);
      }
    });
  }
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import type { Deps } from '../../server/deps';
import type { Payment } from '../../server/db/types';
import { claim } from '../../server/services/checkout/claim';
import { reconcilePayments } from '../../server/services/checkout';
import { gatewayFor } from '../../server/services/payments';
import { parseMoney } from '../../src/domain/money';

/**
 * Payment attempts (issue 20, finding 7): the attempt is written before the gateway is called, its outcome is
 * recorded with the booking, and an attempt left between charge and booking (a process killed there) is booked,
 * released or refunded by the reconciler, according to what the provider says became of the charge.
 */
const card = (number: string) => ({ card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } });
const OK = card('4242424242424242');

describeEachDatabase('payment attempts and the reconciler', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let deps: Deps;
  const clock = testClock();
  const db = () => ctx().db;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { now: clock.now() });
    // The test gateway answers 300 ms after it has charged, as a provider's answer may still be on its way.
    deps = { ...testDeps(ctx(), clock.now) };
    deps.config = { ...deps.config, testGatewayLatencyMs: 300 };
    app = await buildTestApp(deps);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A guest's cart of one adult with purchaser details, ready to pay. */
  async function guestCart() {
    const b = new Browser(app);
    const session = await addSession(db(), fx, { from: clock.now() });
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: session }],
    });
    expect(cart.status).toBe(200);
    const user = await b.post(`/api/user?_seller=${fx.slug}`, { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' });
    return {
      b,
      cartId: cart.body.cart._data[0].id as string,
      identityId: user.body.identity._data[0].id as string,
      outstanding: cart.body.cart._data[0].cart_fees.grand_totals.total_outstanding as string,
    };
  }
  const pay = (g: Awaited<ReturnType<typeof guestCart>>, gateway_data: unknown = OK) =>
    g.b.post(`/api/cart/${g.cartId}/guest_checkout`, {
      amount: g.outstanding,
      gateway_id: 'test',
      gateway_data,
      guest_identity_id: g.identityId,
      send_email: true,
    });

  /** What a process killed after the gateway call leaves behind: the cart claimed, its attempt pending, maybe charged. */
  async function cutAfterClaim(g: Awaited<ReturnType<typeof guestCart>>, opts: { charge: boolean }): Promise<Payment> {
    const seller = await db().selectFrom('seller').selectAll().where('slug', '=', fx.slug).executeTakeFirstOrThrow();
    const gateway = gatewayFor({}, 'test');
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
    if (opts.charge) await chargeAttempt(attempt);
    return attempt;
  }
  /** The test gateway charges a card under the attempt's key, as the checkout would have. */
  const chargeAttempt = (attempt: Payment) =>
    gatewayFor({}, 'test').charge({
      db: db(),
      sellerId: attempt.seller_id,
      cartId: attempt.cart_id,
      amount: attempt.amount,
      currency: 'USD',
      idempotencyKey: attempt.idempotency_key,
      gatewayData: OK,
      now: clock.now(),
    });
  const attemptOf = (id: string) => db().selectFrom('payment').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const cartOf = (id: string) => db().selectFrom('cart').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const chargeOf = (key: string) =>
    db().selectFrom('test_gateway_charge').selectAll().where('idempotency_key', '=', key).executeTakeFirst();

  it('writes the attempt before the gateway is called and records its outcome with the booking', async () => {
    const g = await guestCart();
    const paying = pay(g);
    // While the gateway's answer is on its way the money is taken and the attempt is pending: a kill now is recoverable.
    let seen: Payment | undefined;
    for (let i = 0; i < 200 && !seen; i++) {
      const rows = await db().selectFrom('payment').selectAll().where('cart_id', '=', g.cartId).execute();
      const charged = rows[0] && (await chargeOf(rows[0].idempotency_key));
      if (rows[0]?.status === 'pending' && charged?.status === 'succeeded') seen = rows[0];
      else await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen, 'a pending attempt with its charge made').toBeTruthy();
    expect(seen!.amount).toBe(parseMoney(g.outstanding));
    expect(seen!.order_identity_id).toBe(g.identityId);
    expect((await cartOf(g.cartId)).state).toBe('checking_out');

    const res = await paying;
    expect(res.status).toBe(200);
    const after = await attemptOf(seen!.id);
    expect(after.status).toBe('succeeded');
    expect(after.ticket_order_id).toBe(res.body.ticket_order._data[0].id);
    expect(after.gateway_ref).toBe((await chargeOf(seen!.idempotency_key))!.ref);
    expect(await db().selectFrom('payment').select('id').where('cart_id', '=', g.cartId).execute()).toHaveLength(1);
  });

  it('a declined card leaves a failed attempt and a pending cart the shopper can pay again', async () => {
    const g = await guestCart();
    const declined = await pay(g, card('4000000000000002'));
    expect(declined.status).toBe(402);
    const rows = await db().selectFrom('payment').selectAll().where('cart_id', '=', g.cartId).execute();
    expect(rows.map((r) => [r.status, r.gateway_ref])).toEqual([['failed', 'card_declined']]);
    expect((await cartOf(g.cartId)).state).toBe('pending');
    expect((await pay(g)).status).toBe(200);
  });

  it('the reconciler books an attempt that was charged but never booked, and mails the order', async () => {
    const g = await guestCart();
    const attempt = await cutAfterClaim(g, { charge: true });
    // Too young: a live process may still be waiting for the gateway.
    expect(await reconcilePayments(deps)).toEqual({ booked: 0, released: 0, refunded: 0, waiting: 0, unreachable: 0 });
    expect((await attemptOf(attempt.id)).status).toBe('pending');

    clock.advance(deps.config.reconcileAfterMs / 1000 + 1);
    const report = await reconcilePayments(deps);
    expect(report.booked).toBe(1);
    const settled = await attemptOf(attempt.id);
    expect(settled.status).toBe('succeeded');
    const order = await db().selectFrom('ticket_order').selectAll().where('cart_id', '=', g.cartId).executeTakeFirstOrThrow();
    expect(settled.ticket_order_id).toBe(order.id);
    expect(order.identity_id).toBe(g.identityId);
    expect((await cartOf(g.cartId)).state).toBe('completed');
    const tickets = await db().selectFrom('ticket').select(['state', 'scan_code']).where('cart_id', '=', g.cartId).execute();
    expect(tickets.every((t) => t.state === 'booked' && t.scan_code)).toBe(true);
    const mail = await db().selectFrom('mail_outbox').select('meta').where('kind', '=', 'order_tickets').execute();
    expect(mail.some((m) => m.meta?.ticket_order_id === order.id)).toBe(true);
    // The shopper's own retry now learns the order was booked.
    const retry = await pay(g);
    expect(retry.status).toBe(409);
    expect(retry.body._data[0]._code).toBe('cart_booked');
  });

  it('the reconciler releases an attempt that was never charged; the shopper pays again', async () => {
    const g = await guestCart();
    const attempt = await cutAfterClaim(g, { charge: false });
    expect((await pay(g)).body._data[0]._code).toBe('cart_checkout_in_progress');
    clock.advance(deps.config.reconcileAfterMs / 1000 + 1);
    expect((await reconcilePayments(deps)).released).toBe(1);
    expect(await attemptOf(attempt.id)).toMatchObject({ status: 'failed', gateway_ref: 'abandoned' });
    expect((await cartOf(g.cartId)).state).toBe('pending');
    expect((await pay(g)).status).toBe(200);
  });

  it('a charge whose attempt was given up meanwhile is refunded, never booked twice', async () => {
    const g = await guestCart();
    const attempt = await cutAfterClaim(g, { charge: false });
    clock.advance(deps.config.reconcileAfterMs / 1000 + 1);
    // The reconciler gives the attempt up (nothing charged yet) and the shopper pays on a new attempt...
    await reconcilePayments(deps);
    expect((await pay(g)).status).toBe(200);
    // ...then the old charge arrives after all (a provider slower than RECONCILE_AFTER_MS): it is owed back.
    const late = await chargeAttempt(attempt);
    await db().updateTable('payment').set({ status: 'pending' }).where('id', '=', attempt.id).execute();
    clock.advance(deps.config.reconcileAfterMs / 1000 + 1);
    expect(await reconcilePayments(deps)).toMatchObject({ refunded: 1, booked: 0 });
    expect(await attemptOf(attempt.id)).toMatchObject({ status: 'refunded', gateway_ref: late.ref, audit_action: 'refund' });
    expect((await chargeOf(attempt.idempotency_key))!.status).toBe('refunded');
    expect(await db().selectFrom('ticket_order').select('id').where('cart_id', '=', g.cartId).execute()).toHaveLength(1);
  });

  it('the test gateway refuses to refund a charge it never made, as a provider does', async () => {
    const refund = gatewayFor(deps.config, 'test').refund({ db: db(), ref: 'tch_never_issued', amount: 100, idempotencyKey: 'r-unknown' });
    await expect(refund).rejects.toMatchObject({ code: 'payment_failed', extra: { provider_code: 'resource_missing' } });
  });

  it('two reconcilers at once settle an attempt once', async () => {
    const g = await guestCart();
    const attempt = await cutAfterClaim(g, { charge: true });
    clock.advance(deps.config.reconcileAfterMs / 1000 + 1);
    const [a, b] = await Promise.all([reconcilePayments(deps), reconcilePayments(deps)]);
    expect(a.booked + b.booked).toBeGreaterThanOrEqual(1);
    expect(await db().selectFrom('ticket_order').select('id').where('cart_id', '=', g.cartId).execute()).toHaveLength(1);
    expect((await attemptOf(attempt.id)).status).toBe('succeeded');
  });

  it('a 3-D Secure confirmation continues its own attempt', async () => {
    const g = await guestCart();
    const asked = await pay(g, card('4000002500003155'));
    expect(asked.status).toBe(402);
    const intent = asked.body._data[0]._extra.intent_id as string;
    const [first] = await db().selectFrom('payment').selectAll().where('cart_id', '=', g.cartId).execute();
    expect(first).toMatchObject({ status: 'requires_action', gateway_ref: intent });
    const confirmed = await pay(g, { source: intent });
    expect(confirmed.status).toBe(200);
    const rows = await db().selectFrom('payment').selectAll().where('cart_id', '=', g.cartId).execute();
    expect(rows.map((r) => [r.id, r.status])).toEqual([[first.id, 'succeeded']]);
  });
});

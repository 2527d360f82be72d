import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { writeStaff } from '../../server/services/staff';
import { hashPassword } from '../../server/services/password';

const CARD = { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } };
const STAFF = { email: 'boxoffice@example.org', password: 'BoxOffice2026!' };
const DAY = 86_400_000;

/**
 * Scheduled payments (issue 13): the box office puts a held cart on a payment plan, the visitor pays at least what is
 * due each time (a part payment answers the cart), and the last part books the order.
 */
describeEachDatabase('payment plans', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let staffCookie = '';
  const db = () => ctx().db;
  let n = 0;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { slug: 'planshop' });
    await writeStaff(db(), fx.sellerId, [{ email: STAFF.email, name: 'Box Office', password_hash: await hashPassword(STAFF.password) }]);
    app = await buildTestApp(testDeps(ctx()));
    const login = await app.inject({
      method: 'POST',
      url: `/api/staff/login?_seller=${fx.slug}`,
      payload: STAFF,
      headers: { 'x-ticketing-app': 'ecomm' },
    });
    expect(login.statusCode).toBe(200);
    staffCookie = login.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A guest's cart of two adult tickets: 2 x (25.00 + 1.50) = 53.00. */
  async function guestCart() {
    const b = new Browser(app, `10.81.1.${++n}`);
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [0, 1].map(() => ({ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId })),
    });
    const user = await b.post(`/api/user?_seller=${fx.slug}`, {
      first_name: 'Plan',
      last_name: `Guest ${n}`,
      email: `plan${n}@example.org`,
      email_confirm: `plan${n}@example.org`,
      zip_code: '10001',
    });
    const cartId = cart.body.cart._data[0].id as string;
    const pay = (amount: string) =>
      b.post(`/api/cart/${cartId}/guest_checkout`, {
        amount,
        gateway_id: 'test',
        gateway_data: CARD,
        guest_identity_id: user.body.identity._data[0].id,
        send_email: false,
      });
    const payByGiftCard = (number: string, amount: string) =>
      b.post(`/api/cart/${cartId}/guest_checkout`, {
        amount,
        gateway_id: 'ledger',
        gateway_data: { number },
        guest_identity_id: user.body.identity._data[0].id,
        send_email: false,
      });
    return { b, cartId, pay, payByGiftCard };
  }
  const plan = (cartId: string, parts: Array<[number, string]>) =>
    app.inject({
      method: 'PUT',
      url: `/api/staff/cart/${cartId}/payment_schedule?_seller=${fx.slug}`,
      payload: { parts: parts.map(([days, amount]) => ({ due_date: new Date(Date.now() + days * DAY).toISOString(), amount })) },
      headers: { 'x-ticketing-app': 'ecomm', cookie: staffCookie },
    });

  it('a plan holds the cart; each payment is at least what is due, a part answers the cart, the last part books', async () => {
    const g = await guestCart();
    const set = await plan(g.cartId, [
      [-1, '13.00'],
      [10, '20.00'],
      [40, '20.00'],
    ]);
    expect(set.statusCode, set.body).toBe(200);
    let row = (await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0];
    expect(row.expires_at).toBeNull();
    expect(row.scheduled_payments.map((p: { amount: string; status: string }) => [p.amount, p.status])).toEqual([
      ['13.00', 'overdue'],
      ['20.00', 'upcoming'],
      ['20.00', 'upcoming'],
    ]);
    expect(row.amount_due_now).toBe('33.00');

    const short = await g.pay('10.00');
    expect([short.status, short.body._data[0]._code, short.body._data[0]._extra.due]).toEqual([400, 'payment_amount_incorrect', 3300]);
    const part = await g.pay('33.00');
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body.ticket_order).toBeUndefined();
    row = part.body.cart._data[0];
    expect(row.state).toBe('pending');
    expect(row.cart_fees.grand_totals).toMatchObject({ total_payments: '33.00', total_outstanding: '20.00' });
    expect(row.scheduled_payments.map((p: { amount: string }) => p.amount)).toEqual(['20.00']);
    expect(row.amount_due_now).toBe('20.00');
    expect(row.completed_payments).toEqual([
      { id: expect.any(String), occurred_date: expect.any(String), amount: '33.00', status: 'succeeded', gateway_id: 'test' },
    ]);
    expect(row.gateway_audit.map((a: { audit_action: string }) => a.audit_action)).toEqual(['capture']);

    // What was paid keeps the tickets: the cart cannot be emptied or cut below it here.
    const ticketId = (await g.b.get(`/api/cart/${g.cartId}`)).body.ticket._data[0].id;
    const removed = await g.b.post(`/api/cart/${g.cartId}/modify`, { remove: [ticketId] });
    expect([removed.status, removed.body._data[0]._code]).toEqual([409, 'cart_has_payments']);
    const deleted = await g.b.delete(`/api/cart/${g.cartId}`);
    expect([deleted.status, deleted.body._data[0]._code]).toEqual([409, 'cart_has_payments']);

    const last = await g.pay('20.00');
    expect(last.status, JSON.stringify(last.body)).toBe(200);
    expect(last.body.ticket_order._data[0]).toMatchObject({ total_after_fees_price: '53.00' });
    const payments = await db().selectFrom('payment').select(['amount', 'ticket_order_id']).where('cart_id', '=', g.cartId).execute();
    expect(payments.map((p) => p.amount).sort()).toEqual([2000, 3300]);
    expect(new Set(payments.map((p) => p.ticket_order_id))).toEqual(new Set([last.body.ticket_order._data[0].id]));
  });

  it('another amount between what is due and what is owed is taken; paying everything at once books', async () => {
    const g = await guestCart();
    expect(
      (
        await plan(g.cartId, [
          [5, '26.50'],
          [30, '26.50'],
        ])
      ).statusCode,
    ).toBe(200);
    expect((await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0].amount_due_now).toBe('26.50');
    const other = await g.pay('30.00');
    expect(other.status).toBe(200);
    expect(other.body.cart._data[0].scheduled_payments.map((p: { amount: string }) => p.amount)).toEqual(['23.00']);
    const all = await g.pay('23.00');
    expect(all.body.ticket_order._data).toHaveLength(1);
  });

  it('a card takes at least 0.50, or 0.30 in pounds (spec section 5): a 0.40 last part is refused in dollars, taken in pounds', async () => {
    const g = await guestCart();
    expect(
      (
        await plan(g.cartId, [
          [-1, '20.00'],
          [10, '32.60'],
          [30, '0.40'],
        ])
      ).statusCode,
    ).toBe(200);
    expect((await g.pay('52.60')).status).toBe(200);
    const dollars = await g.pay('0.40');
    expect([dollars.status, dollars.body._data[0]._code]).toEqual([400, 'payment_not_supported']);
    await db().updateTable('seller').set({ currency: 'GBP' }).where('id', '=', fx.sellerId).execute();
    try {
      const pounds = await g.pay('0.40');
      expect(pounds.status, JSON.stringify(pounds.body)).toBe(200);
      expect(pounds.body.ticket_order._data).toHaveLength(1);
    } finally {
      await db().updateTable('seller').set({ currency: 'USD' }).where('id', '=', fx.sellerId).execute();
    }
  });

  it('a plan set after a gift card paid part counts only the payments made since; a held cart has nothing to extend', async () => {
    const g = await guestCart();
    const number = `PLAN-GIFT-${n}`;
    await db().insertInto('ledger').values({ seller_id: fx.sellerId, number, balance: 1000, currency: 'USD' }).execute();
    expect((await g.payByGiftCard(number, '10.00')).status).toBe(200);
    // 53.00 less the 10.00 already paid: the plan's parts add up to 43.00.
    expect(
      (
        await plan(g.cartId, [
          [-1, '20.00'],
          [10, '10.00'],
          [30, '13.00'],
        ])
      ).statusCode,
    ).toBe(200);
    const row = (await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0];
    expect(row.amount_due_now).toBe('30.00');
    expect(row.scheduled_payments.map((p: { amount: string }) => p.amount)).toEqual(['20.00', '10.00', '13.00']);
    const extended = await g.b.patch(`/api/my/cart/${g.cartId}`, {});
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect((await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0].expires_at).toBeNull();
  });

  it('only staff set a plan, and its parts must add up to what the cart owes', async () => {
    const g = await guestCart();
    const anonymous = await app.inject({
      method: 'PUT',
      url: `/api/staff/cart/${g.cartId}/payment_schedule?_seller=${fx.slug}`,
      payload: { parts: [{ due_date: new Date().toISOString(), amount: '53.00' }] },
      headers: { 'x-ticketing-app': 'ecomm' },
    });
    expect(anonymous.statusCode).toBe(401);
    const wrong = await plan(g.cartId, [[5, '50.00']]);
    expect([wrong.statusCode, wrong.json()._data[0]._code]).toEqual([400, 'validation_failed']);
    // Without a plan a part payment is refused as before.
    expect((await g.pay('20.00')).body._data[0]._code).toBe('payment_amount_incorrect');
  });
});

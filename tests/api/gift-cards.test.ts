import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { setUnsafeSkipLedgerGuardForTests } from '../../server/services/payments';
import { reconcilePayments } from '../../server/services/checkout';
import type { Db } from '../../server/db';
import { addPromo } from '../helpers/promo-fixtures';

const CARD = { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } };
const GUEST = (i: number | string) => ({
  first_name: 'Gift',
  last_name: `Guest ${i}`,
  email: `gift${i}@example.org`,
  email_confirm: `gift${i}@example.org`,
  zip_code: '10001',
});

let cardSerial = 0;
async function addCard(db: Db, sellerId: string, balance: number, state = 'active') {
  const number = `TEST-${++cardSerial}-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  const row = await db
    .insertInto('ledger')
    .values({ seller_id: sellerId, number, balance, currency: 'USD', state })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, number };
}
const balanceOf = async (db: Db, id: string) =>
  (await db.selectFrom('ledger').select('balance').where('id', '=', id).executeTakeFirstOrThrow()).balance;

/**
 * Gift cards (issue 13): GET ledger/giftcard/{number}, paying all or part of a cart through the ledger gateway, the
 * money going back to the card when the cart is given up, and cards issued by buying one.
 */
describeEachDatabase('gift cards', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let giftType: string;
  const db = () => ctx().db;
  let n = 0;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { slug: 'giftshop' });
    const group = await db()
      .insertInto('ticket_group')
      .values({
        seller_id: fx.sellerId,
        event_template_id: fx.eventId,
        key: 'giftcard',
        name: 'Gift Card',
        handler: 'ledger',
        flexible: true,
        meta: '{}',
        config: '{}',
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    giftType = (
      await db()
        .insertInto('ticket_type')
        .values({ seller_id: fx.sellerId, ticket_group_id: group.id, key: 'gc25', name: '$25 Gift Card', price: 2500 } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    app = await buildTestApp(testDeps(ctx()));
  });
  afterAll(async () => {
    setUnsafeSkipLedgerGuardForTests(false);
    await app?.close();
  });

  /** A guest's cart of `adults` adult tickets (26.50 each with the fee) and purchaser details. */
  async function guestCart(adults = 1, session = fx.sessionId, lines?: unknown[]) {
    const b = new Browser(app, `10.77.${Math.floor(++n / 200)}.${(n % 200) + 1}`);
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: lines ?? Array.from({ length: adults }, () => ({ ticket_type_id: fx.types.adult, event_session_id: session })),
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(200);
    const user = await b.post(`/api/user?_seller=${fx.slug}`, GUEST(n));
    expect(user.status).toBe(200);
    return { b, cartId: cart.body.cart._data[0].id as string, identityId: user.body.identity._data[0].id as string };
  }
  const payByCard = (g: Awaited<ReturnType<typeof guestCart>>, number: string, amount: string) =>
    g.b.post(`/api/cart/${g.cartId}/guest_checkout`, {
      amount,
      gateway_id: 'ledger',
      gateway_data: { number },
      guest_identity_id: g.identityId,
      send_email: false,
    });

  it('GET ledger/giftcard/{number}: number, state and balance; case and spaces do not matter; 404 otherwise', async () => {
    const card = await addCard(db(), fx.sellerId, 4200);
    const b = new Browser(app, '10.78.0.1');
    const res = await b.get(`/api/ledger/giftcard/${encodeURIComponent(` ${card.number.toLowerCase()} `)}?_seller=${fx.slug}`);
    expect(res.status).toBe(200);
    expect(res.body.ledger._data[0]).toEqual({
      number: card.number,
      ledger_type: 'giftcard',
      state: 'active',
      balance: '42.00',
      currency: 'USD',
    });
    expect(res.res.headers['cache-control']).toContain('no-store');
    const missing = await b.get(`/api/ledger/giftcard/NOPE-0000?_seller=${fx.slug}`);
    expect(missing.status).toBe(404);
    expect(missing.body._data[0]._code).toBe('gift_card_not_found');
    expect((await b.get(`/api/ledger/wallet/${card.number}?_seller=${fx.slug}`)).status).toBe(400);
  });

  it('wrong numbers are limited per address: the 31st in 15 minutes is refused, found cards do not count', async () => {
    const card = await addCard(db(), fx.sellerId, 100);
    const b = new Browser(app, '10.78.0.2');
    for (let i = 0; i < 30; i++) {
      expect((await b.get(`/api/ledger/giftcard/WRONG-${i}?_seller=${fx.slug}`)).status).toBe(404);
      if (i === 10) expect((await b.get(`/api/ledger/giftcard/${card.number}?_seller=${fx.slug}`)).status).toBe(200);
    }
    const limited = await b.get(`/api/ledger/giftcard/WRONG-X?_seller=${fx.slug}`);
    expect(limited.status).toBe(429);
    expect(limited.body._data[0]._code).toBe('rate_limited');
    expect((await new Browser(app, '10.78.0.3').get(`/api/ledger/giftcard/${card.number}?_seller=${fx.slug}`)).status).toBe(200);
  });

  it('a card pays part of a cart: 200 with the refreshed cart, the rest by card books one order of the whole', async () => {
    const card = await addCard(db(), fx.sellerId, 1000);
    const g = await guestCart(1);
    const part = await payByCard(g, card.number, '10.00');
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body.ticket_order).toBeUndefined();
    const row = part.body.cart._data[0];
    expect(row.state).toBe('pending');
    expect(row.cart_fees.grand_totals).toMatchObject({ total_payments: '10.00', total_outstanding: '16.50' });
    expect(row.gift_card_payments).toEqual([
      { payment_id: expect.any(String), card_number: card.number, payment_amount: '10.00', remaining_balance: '0.00' },
    ]);
    expect(await balanceOf(db(), card.id)).toBe(0);
    // GET cart says the same.
    expect((await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0].gift_card_payments).toHaveLength(1);

    const rest = await g.b.post(`/api/cart/${g.cartId}/guest_checkout`, {
      amount: '16.50',
      gateway_id: 'test',
      gateway_data: CARD,
      guest_identity_id: g.identityId,
      send_email: false,
    });
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    const order = rest.body.ticket_order._data[0];
    expect(order).toMatchObject({ total_after_fees_price: '26.50', total_discount: '0.00' });
    const payments = await db()
      .selectFrom('payment')
      .select(['gateway_id', 'amount', 'status', 'ticket_order_id'])
      .where('cart_id', '=', g.cartId)
      .execute();
    expect(payments.map((p) => [p.gateway_id, p.amount, p.status, p.ticket_order_id]).sort()).toEqual([
      ['ledger', 1000, 'succeeded', order.id],
      ['test', 1650, 'succeeded', order.id],
    ]);
  });

  it('a card that covers the cart pays it wholly: the order is booked with no card', async () => {
    const card = await addCard(db(), fx.sellerId, 5000);
    const g = await guestCart(1);
    const paid = await payByCard(g, card.number, '26.50');
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.ticket_order._data[0]).toMatchObject({ total_after_fees_price: '26.50' });
    expect(await balanceOf(db(), card.id)).toBe(5000 - 2650);
    const entries = await db().selectFrom('ledger_entry').select(['amount', 'reason']).where('ledger_id', '=', card.id).execute();
    expect(entries).toEqual([{ amount: -2650, reason: 'payment' }]);
  });

  it('two cards and a card payment: each pays its part, the cart lists both', async () => {
    const a = await addCard(db(), fx.sellerId, 1500);
    const b = await addCard(db(), fx.sellerId, 2000);
    const g = await guestCart(2);
    expect((await payByCard(g, a.number, '15.00')).status).toBe(200);
    const second = await payByCard(g, b.number, '20.00');
    expect(second.body.cart._data[0].gift_card_payments.map((p: { card_number: string }) => p.card_number)).toEqual([a.number, b.number]);
    expect(second.body.cart._data[0].cart_fees.grand_totals.total_outstanding).toBe('18.00');
    const rest = await g.b.post(`/api/cart/${g.cartId}/guest_checkout`, {
      amount: '18.00',
      gateway_id: 'test',
      gateway_data: CARD,
      guest_identity_id: g.identityId,
      send_email: false,
    });
    expect(rest.status).toBe(200);
  });

  it('refusals: unknown, inactive, empty, applied twice, more than it holds, more than is owed', async () => {
    const g = await guestCart(1);
    const code = (r: { body: { _data: Array<{ _code: string; _extra?: Record<string, unknown> }> } }) => r.body._data[0];
    expect(code(await payByCard(g, 'NO-SUCH-CARD', '5.00'))._code).toBe('gift_card_not_found');
    const inactive = await addCard(db(), fx.sellerId, 1000, 'void');
    expect(code(await payByCard(g, inactive.number, '5.00'))._code).toBe('gift_card_not_found');
    const empty = await addCard(db(), fx.sellerId, 0);
    const emptyRes = await payByCard(g, empty.number, '5.00');
    expect([emptyRes.status, code(emptyRes)._code]).toEqual([409, 'gift_card_empty']);
    const small = await addCard(db(), fx.sellerId, 500);
    const over = await payByCard(g, small.number, '6.00');
    expect([over.status, code(over)._code, code(over)._extra?.balance]).toEqual([409, 'gift_card_balance_insufficient', 500]);
    const big = await addCard(db(), fx.sellerId, 10000);
    expect(code(await payByCard(g, big.number, '30.00'))._code).toBe('payment_amount_incorrect');
    expect(code(await payByCard(g, big.number, '0.00'))._code).toBe('payment_amount_incorrect');
    expect((await payByCard(g, small.number, '5.00')).status).toBe(200);
    const twice = await payByCard(g, small.number, '1.00');
    expect([twice.status, code(twice)._code]).toEqual([409, 'gift_card_applied']);
    // Nothing was taken by the refusals.
    expect(await balanceOf(db(), big.id)).toBe(10000);
    expect(await balanceOf(db(), small.id)).toBe(0);
  });

  it('a cart whose time is up gives its gift-card payments back; a part payment is refused on it', async () => {
    const card = await addCard(db(), fx.sellerId, 2000);
    const g = await guestCart(1);
    expect((await payByCard(g, card.number, '20.00')).status).toBe(200);
    await db()
      .updateTable('cart')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', g.cartId)
      .execute();
    const other = await addCard(db(), fx.sellerId, 500);
    const late = await payByCard(g, other.number, '5.00');
    expect(late.body._data[0]._code).toBe('cart_expired');
    const after = await g.b.get(`/api/cart/${g.cartId}`);
    expect(after.body.cart._data[0].state).toBe('expired');
    expect(await balanceOf(db(), card.id)).toBe(2000);
    expect(await balanceOf(db(), other.id)).toBe(500);
    const entries = await db()
      .selectFrom('ledger_entry')
      .select(['amount', 'reason'])
      .where('ledger_id', '=', card.id)
      .orderBy('created_at')
      .execute();
    expect(entries).toEqual([
      { amount: -2000, reason: 'payment' },
      { amount: 2000, reason: 'returned' },
    ]);
    const payment = await db().selectFrom('payment').select('status').where('cart_id', '=', g.cartId).executeTakeFirstOrThrow();
    expect(payment.status).toBe('refunded');
  });

  it('a deleted cart gives its gift-card payments back', async () => {
    const card = await addCard(db(), fx.sellerId, 1200);
    const g = await guestCart(1);
    expect((await payByCard(g, card.number, '12.00')).status).toBe(200);
    expect((await g.b.delete(`/api/cart/${g.cartId}`)).status).toBe(200);
    expect(await balanceOf(db(), card.id)).toBe(1200);
  });

  it('taking tickets out below what the cards paid gives the newest card payment back', async () => {
    const card = await addCard(db(), fx.sellerId, 4000);
    const g = await guestCart(2);
    expect((await payByCard(g, card.number, '40.00')).status).toBe(200);
    const tickets = (await g.b.get(`/api/cart/${g.cartId}`)).body.ticket._data as Array<{ id: string }>;
    const removed = await g.b.post(`/api/cart/${g.cartId}/modify`, { remove: [tickets[0].id] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const row = removed.body.cart._data[0];
    expect(row.gift_card_payments).toEqual([]);
    expect(row.cart_fees.grand_totals).toMatchObject({ total_payments: '0.00', total_outstanding: '26.50' });
    expect(await balanceOf(db(), card.id)).toBe(4000);
    // Adding keeps what was paid.
    expect((await payByCard(g, card.number, '20.00')).status).toBe(200);
    const added = await g.b.post(`/api/cart/${g.cartId}/modify`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
    });
    expect(added.body.cart._data[0].cart_fees.grand_totals).toMatchObject({ total_payments: '20.00', total_outstanding: '33.00' });
  });

  it('a promo code that makes the cart cheaper than its gift-card payments gives the difference back', async () => {
    const card = await addCard(db(), fx.sellerId, 4000);
    await addPromo(db(), fx, { code: 'HALFOFF', type: 'percent', value: 50 });
    const g = await guestCart(2);
    expect((await payByCard(g, card.number, '40.00')).status).toBe(200);
    const applied = await g.b.post(`/api/cart/${g.cartId}/apply_code`, { codes: ['HALFOFF'] });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const row = applied.body.cart._data[0];
    // 2 x 12.50 + 2 x 1.50 fees = 28.00, less than the 40.00 the card paid: its payment goes back whole.
    expect(row.cart_fees.grand_totals).toMatchObject({ total_payments: '0.00', total_outstanding: '28.00' });
    expect(await balanceOf(db(), card.id)).toBe(4000);
  });

  it('wrong numbers at checkout count against the address like the lookup', async () => {
    const g = await guestCart(1);
    for (let i = 0; i < 30; i++) expect((await payByCard(g, `WRONG-CHECKOUT-${i}`, '5.00')).status).toBe(404);
    const limited = await payByCard(g, 'WRONG-CHECKOUT-X', '5.00');
    expect([limited.status, limited.body._data[0]._code]).toEqual([429, 'rate_limited']);
  });

  it('buying a gift card issues a card of its value, shown with the order and spendable at once', async () => {
    const buyer = await guestCart(0, fx.sessionId, [{ ticket_type_id: giftType }]);
    const bought = await buyer.b.post(`/api/cart/${buyer.cartId}/guest_checkout`, {
      amount: '25.00',
      gateway_id: 'test',
      gateway_data: CARD,
      guest_identity_id: buyer.identityId,
      send_email: true,
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    const issued = bought.body.ledger._data;
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ balance: '25.00', state: 'active', ticket_id: bought.body.ticket._data[0].id });
    expect(issued[0].number).toMatch(/^GC-[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    // The purchaser's e-mail carries the number (no QR code: a gift card admits nobody).
    const mail = await db()
      .selectFrom('mail_outbox')
      .select(['text_body', 'html_body'])
      .where(sql<boolean>`meta->>'ticket_order_id' = ${bought.body.ticket_order._data[0].id}`)
      .executeTakeFirstOrThrow();
    expect(mail.text_body).toContain(`Gift card number ${issued[0].number}, balance 25.00 USD`);
    expect(mail.html_body).not.toContain('cid:qr-');
    const g = await guestCart(1);
    const part = await payByCard(g, issued[0].number, '25.00');
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body.cart._data[0].cart_fees.grand_totals.total_outstanding).toBe('1.50');
  });

  it('a part payment whose process died before recording it is settled by the reconciler as a part payment', async () => {
    const card = await addCard(db(), fx.sellerId, 700);
    const g = await guestCart(1);
    const deps = testDeps(ctx());
    // The attempt as the claim writes it, and the debit as the gateway makes it, with nothing recorded after.
    const attempt = await db()
      .insertInto('payment')
      .values({
        seller_id: fx.sellerId,
        cart_id: g.cartId,
        gateway_id: 'ledger',
        amount: 700,
        status: 'pending',
        idempotency_key: `cart:${g.cartId}:attempt:crash`,
        order_identity_id: g.identityId,
        updated_at: new Date(Date.now() - 3600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().updateTable('cart').set({ state: 'checking_out' }).where('id', '=', g.cartId).execute();
    const { ledgerGateway } = await import('../../server/services/payments/ledger');
    await ledgerGateway.charge({
      db: db(),
      sellerId: fx.sellerId,
      cartId: g.cartId,
      amount: 700,
      currency: 'USD',
      idempotencyKey: `cart:${g.cartId}:attempt:crash`,
      gatewayData: { number: card.number },
      now: new Date(),
    });
    const report = await reconcilePayments(deps, { olderThanMs: 1000 });
    expect(report.booked).toBeGreaterThanOrEqual(1);
    const row = (await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0];
    expect(row.state).toBe('pending');
    expect(row.cart_fees.grand_totals.total_outstanding).toBe('19.50');
    const settled = await db().selectFrom('payment').select('status').where('id', '=', attempt.id).executeTakeFirstOrThrow();
    expect(settled.status).toBe('succeeded');
    expect(await balanceOf(db(), card.id)).toBe(0);
  });

  /** 20 carts of one adult ticket (26.50) each pay it wholly with one card of 100.00, all at once. */
  async function race() {
    const card = await addCard(db(), fx.sellerId, 10000);
    const session = await addSession(db(), fx, { capacity: 50 });
    const guests = await Promise.all(Array.from({ length: 20 }, () => guestCart(1, session)));
    const results = await Promise.all(guests.map((g) => payByCard(g, card.number, '26.50')));
    const taken = await db()
      .selectFrom('ledger_entry')
      .select(sql<number>`coalesce(-sum(amount), 0)::int`.as('sum'))
      .where('ledger_id', '=', card.id)
      .where('reason', '=', 'payment')
      .executeTakeFirstOrThrow();
    return { results, taken: Number(taken.sum), balance: await balanceOf(db(), card.id) };
  }

  it('20 carts spend one card at once: together they take at most its balance', async () => {
    const { results, taken, balance } = await race();
    const ok = results.filter((r) => r.status === 200);
    const short = results.filter((r) => r.status === 409 && r.body._data[0]._code === 'gift_card_balance_insufficient');
    console.log(`[${ctx().kind}] guarded: ${ok.length} paid, ${short.length} refused, ${taken} taken of 10000`);
    expect(ok).toHaveLength(3);
    expect(ok.length + short.length).toBe(20);
    expect(taken).toBe(3 * 2650);
    expect(balance).toBe(10000 - taken);
  }, 120_000);

  describe('control: the guard switched off', () => {
    it('observes the overspending the guard prevents', async () => {
      // The schema's CHECK (balance >= 0) is a last-resort guard; the control removes it in this test's own schema to
      // see what the conditional update alone prevents.
      await sql`alter table ledger drop constraint ledger_balance_ck`.execute(db());
      setUnsafeSkipLedgerGuardForTests(true);
      try {
        const { results, taken } = await race();
        const ok = results.filter((r) => r.status === 200);
        console.log(
          `[${ctx().kind}] unguarded control: ${ok.length} paid, ${taken} taken of 10000`,
          results.filter((r) => r.status !== 200).map((r) => r.body._data?.[0]?._code),
        );
        expect(taken).toBeGreaterThan(10000);
      } finally {
        setUnsafeSkipLedgerGuardForTests(false);
      }
    }, 120_000);
  });
});

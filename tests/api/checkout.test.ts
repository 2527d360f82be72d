import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { sweepExpiredCarts } from '../../server/jobs/cart-sweeper';
import { orderQrText } from '../../server/services/orders';
import type { Deps } from '../../server/deps';

const CARDS = { ok: '4242424242424242', declined: '4000000000000002', cvc: '4000000000000127', action: '4000002500003155' };
const card = (number: string, extra: Record<string, unknown> = {}) => ({
  card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123', ...extra },
});

describeEachDatabase('checkout API', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let deps: Deps;
  const clock = testClock();
  const db = () => ctx().db;
  const code = (r: { body: any }) => r.body?._data?.[0]?._code;
  const count = async (table: 'ticket_order' | 'payment', cartId: string, status?: string) =>
    (
      await db()
        .selectFrom(table)
        .select('id')
        .where('cart_id', '=', cartId)
        .$if(!!status, (q) => q.where('status' as never, '=', status as never))
        .execute()
    ).length;

  /** A guest with a cart of 2 adults and 1 child (outstanding 69.50) and purchaser details. */
  async function guestWithCart(opts: { session?: string; lines?: unknown[] } = {}) {
    const b = new Browser(app);
    const session = opts.session ?? (await addSession(db(), fx, { from: clock.now() }));
    const add =
      opts.lines ?? [fx.types.adult, fx.types.adult, fx.types.child].map((t) => ({ ticket_type_id: t, event_session_id: session }));
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, { add });
    expect(cart.status).toBe(200);
    const user = await b.post(`/api/user?_seller=${fx.slug}`, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.org',
      email_confirm: 'ADA@example.org',
      zip_code: '10001',
    });
    expect(user.status).toBe(200);
    return {
      b,
      cartId: cart.body.cart._data[0].id as string,
      identityId: user.body.identity._data[0].id as string,
      outstanding: cart.body.cart._data[0].cart_fees.grand_totals.total_outstanding as string,
    };
  }
  const pay = (
    g: { b: Browser; cartId: string; identityId: string; outstanding: string },
    gateway_data: unknown,
    extra: Record<string, unknown> = {},
  ) =>
    g.b.post(`/api/cart/${g.cartId}/guest_checkout`, {
      amount: g.outstanding,
      gateway_id: 'test',
      gateway_data,
      guest_identity_id: g.identityId,
      send_email: true,
      ...extra,
    });

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { now: clock.now() });
    deps = testDeps(ctx(), clock.now);
    app = await buildTestApp(deps);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('POST user', () => {
    it('validates the purchaser identity by spec section 5', async () => {
      const b = new Browser(app);
      const base = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' };
      const cases: Array<[Record<string, unknown>, string, string?]> = [
        [{ ...base, email_confirm: 'other@example.org' }, 'email_confirm', 'Email addresses must match.'],
        [{ ...base, first_name: 'x'.repeat(51) }, 'first_name'],
        [{ ...base, last_name: '  ' }, 'last_name'],
        [{ ...base, email: 'not-an-email' }, 'email'],
        [{ ...base, zip_code: 'ab!' }, 'zip_code'],
        [{ ...base, zip_code: '12345678901' }, 'zip_code'],
        [{ ...base, phone: '1'.repeat(51) }, 'phone'],
        [{ ...base, additional_info: { note: 'x'.repeat(1001) } }, 'additional_info.note'],
      ];
      for (const [body, field, message] of cases) {
        const r = await b.post(`/api/user?_seller=${fx.slug}`, body);
        expect([r.status, code(r), r.body._data[0]._extra.field]).toEqual([400, 'validation_failed', field]);
        if (message) expect(r.body._data[0]).not.toHaveProperty('_description');
      }
      const ok = await b.post(`/api/user?_seller=${fx.slug}`, { ...base, zip_code: 'SW1A 1AA', phone: '+1 212 555 0100' });
      expect(ok.status).toBe(200);
      expect(ok.body.identity._data[0].id).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('test card gateway', () => {
    it('4242 books one order: tickets with scan codes, one payment, cart completed, order mail in the outbox', async () => {
      const g = await guestWithCart();
      expect(g.outstanding).toBe('69.50');
      const r = await pay(g, card(CARDS.ok));
      expect(r.status).toBe(200);
      const order = r.body.ticket_order._data[0];
      expect(order.total_after_fees_price).toBe('69.50');
      expect(order.access_token).toMatch(/^[0-9a-f]{32}$/);
      const codes = r.body.ticket._data.map((t: any) => t.scan_code);
      expect(r.body.ticket._data.every((t: any) => t.state === 'booked' && t.ticket_order_id === order.id)).toBe(true);
      expect(new Set(codes).size).toBe(3);
      for (const c of codes) expect(c).toMatch(/^[0-9A-F]{32}$/);
      expect(r.body.event_session._count).toBe(1);
      const payments = await db().selectFrom('payment').selectAll().where('cart_id', '=', g.cartId).execute();
      expect(payments.map((p) => [p.status, p.amount, p.gateway_id])).toEqual([['succeeded', 6950, 'test']]);
      const cart = await g.b.get(`/api/cart/${g.cartId}?_embed=ticket_order`);
      expect(cart.body.cart._data[0]).toMatchObject({ state: 'completed', expires_in: null, ticket_order_ids: [order.id] });
      expect(cart.body.cart._data[0].cart_fees.grand_totals.total_outstanding).toBe('0.00');
      expect(cart.body.ticket_order._data[0].order_number).toBe(order.order_number);
      const mail = await db().selectFrom('mail_outbox').selectAll().where('to_address', '=', 'ada@example.org').execute();
      const mine = mail.filter((m) => m.meta.ticket_order_id === order.id);
      expect(mine).toHaveLength(1);
      for (const c of codes) expect(mine[0].text_body).toContain(c);
      expect(mine[0].subject).toContain(order.order_number);

      const again = await pay(g, card(CARDS.ok));
      expect([again.status, code(again)]).toEqual([409, 'cart_booked']);
      expect(again.body._data[0]).not.toHaveProperty('_description');
      expect(await count('ticket_order', g.cartId)).toBe(1);
      expect(await count('payment', g.cartId)).toBe(1);
      const modify = await g.b.post(`/api/cart/${g.cartId}/modify`, {
        add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
      });
      expect([modify.status, code(modify)]).toEqual([409, 'cart_booked']);
    });

    it('the same checkout sent 10 times at once books one order and one payment', async () => {
      const g = await guestWithCart();
      const results = await Promise.all(Array.from({ length: 10 }, () => pay(g, card(CARDS.ok))));
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(409);
        expect(['cart_checkout_in_progress', 'cart_booked']).toContain(code(r));
      }
      expect(await count('ticket_order', g.cartId)).toBe(1);
      expect(await count('payment', g.cartId)).toBe(1);
      const booked = await db().selectFrom('ticket').select('id').where('cart_id', '=', g.cartId).where('state', '=', 'booked').execute();
      expect(booked).toHaveLength(3);
    });

    it('a declined card keeps the cart pending and charges nothing; the next card succeeds', async () => {
      const g = await guestWithCart();
      const declined = await pay(g, card(CARDS.declined));
      expect([declined.status, code(declined)]).toEqual([402, 'card_declined']);
      expect(declined.body._data[0]).not.toHaveProperty('_description');
      const cvc = await pay(g, card(CARDS.cvc));
      expect([cvc.status, code(cvc)]).toEqual([402, 'incorrect_cvc']);
      const cart = await g.b.get(`/api/cart/${g.cartId}`);
      expect(cart.body.cart._data[0].state).toBe('pending');
      expect(cart.body.ticket._count).toBe(3);
      expect(await count('payment', g.cartId, 'succeeded')).toBe(0);
      expect(await count('payment', g.cartId, 'failed')).toBe(2);
      expect(await count('ticket_order', g.cartId)).toBe(0);
      const ok = await pay(g, card(CARDS.ok));
      expect(ok.status).toBe(200);
    });

    it('4000 0025 0000 3155 asks for confirmation (402 intent_requires_action), then the retry with the intent succeeds', async () => {
      const g = await guestWithCart();
      const first = await pay(g, card(CARDS.action));
      expect([first.status, code(first)]).toEqual([402, 'intent_requires_action']);
      const intent = first.body._data[0]._extra.intent_id;
      expect(intent).toMatch(/^ti_/);
      expect(await count('ticket_order', g.cartId)).toBe(0);
      const forged = await pay(g, { source: 'ti_000000000000000000000000' });
      expect([forged.status, code(forged)]).toEqual([402, 'payment_intent_authentication_failure']);
      const retry = await pay(g, { source: intent });
      expect(retry.status).toBe(200);
      const payments = await db()
        .selectFrom('payment')
        .selectAll()
        .where('cart_id', '=', g.cartId)
        .where('status', '=', 'succeeded')
        .execute();
      expect(payments).toHaveLength(1);
      expect(payments[0].gateway_ref).toBe(intent);
    });

    it('checks card data like a provider: Luhn, expiry in the future, 3-4 digit CVC; and the amount due', async () => {
      const g = await guestWithCart();
      expect(code(await pay(g, card('4242424242424241')))).toBe('incorrect_number');
      expect(code(await pay(g, card(CARDS.ok, { exp_year: 2020 })))).toBe('expired_card');
      expect(code(await pay(g, card(CARDS.ok, { exp_month: 13 })))).toBe('invalid_expiry_month');
      expect(code(await pay(g, card(CARDS.ok, { cvc: '12' })))).toBe('invalid_cvc');
      const wrong = await pay(g, card(CARDS.ok), { amount: '1.00' });
      expect([wrong.status, code(wrong)]).toEqual([400, 'payment_amount_incorrect']);
      const free = await pay(g, {}, { gateway_id: 'free', amount: '0.00' });
      expect([free.status, code(free)]).toEqual([400, 'payment_amount_incorrect']);
      const unknown = await pay(g, {}, { gateway_id: 'bitcoin' });
      expect([unknown.status, code(unknown)]).toEqual([400, 'gateway_not_found']);
      expect(await count('ticket_order', g.cartId)).toBe(0);
      expect((await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0].state).toBe('pending');
    });
  });

  describe('free gateway', () => {
    it('books a zero-total order without mail when send_email is false', async () => {
      const g = await guestWithCart({
        lines: [{ ticket_type_id: fx.types.infant, event_session_id: await addSession(db(), fx, { from: clock.now() }) }],
      });
      expect(g.outstanding).toBe('0.00');
      const card0 = await pay(g, card(CARDS.ok));
      expect([card0.status, code(card0)]).toEqual([400, 'payment_not_supported']);
      const r = await pay(g, {}, { gateway_id: 'free', amount: '0.00', send_email: false });
      expect(r.status).toBe(200);
      const payments = await db().selectFrom('payment').selectAll().where('cart_id', '=', g.cartId).execute();
      expect(payments.map((p) => [p.gateway_id, p.amount, p.status])).toEqual([['free', 0, 'succeeded']]);
      const mails = await db().selectFrom('mail_outbox').select('meta').execute();
      expect(mails.some((m) => m.meta.ticket_order_id === r.body.ticket_order._data[0].id)).toBe(false);
    });
  });

  describe('orders and QR codes', () => {
    it('the owner and the access token read the order and its QR; nobody else does', async () => {
      const g = await guestWithCart();
      const r = await pay(g, card(CARDS.ok));
      const { id, access_token } = r.body.ticket_order._data[0];
      const own = await g.b.get(`/api/ticket_order/${id}?_embed=ticket,ticket_type,venue`);
      expect(own.status).toBe(200);
      expect(own.body.ticket._count).toBe(3);
      expect(own.body.venue._data[0].name).toBe('Main Hall');
      expect(own.body.ticket_order._data[0].access_token).toBeUndefined();
      const qr = await g.b.get(`/cached_api/ticket_order/${id}/qrcode`);
      expect(qr.status).toBe(200);
      expect(qr.res.headers['content-type']).toBe('image/png');
      expect(Buffer.from(qr.body as Buffer).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(qr.res.headers['cache-control']).toContain('private');
      // The QR carries every ticket's unguessable scan code, not only the (guessable) order number.
      const scanCodes = own.body.ticket._data.map((t: { scan_code: string }) => t.scan_code);
      expect(scanCodes.every((c: string) => /^[0-9A-F]{32}$/.test(c))).toBe(true);
      const text = await orderQrText(testDeps(ctx()), { id, order_number: own.body.ticket_order._data[0].order_number });
      expect(text.split('\n')).toEqual([`ORDER ${own.body.ticket_order._data[0].order_number}`, ...scanCodes]);

      const stranger = new Browser(app);
      await stranger.post(`/api/cart/modify?_seller=${fx.slug}`, { add: [] });
      expect((await stranger.get(`/api/ticket_order/${id}`)).status).toBe(404);
      expect((await stranger.get(`/cached_api/ticket_order/${id}/qrcode`)).status).toBe(404);
      const token = (value: string) => ({ 'x-order-access-token': value });
      expect((await stranger.get(`/api/ticket_order/${id}`, token('0'.repeat(32)))).status).toBe(404);
      const withToken = await stranger.get(`/api/ticket_order/${id}`, token(access_token));
      expect(withToken.status).toBe(200);
      expect((await stranger.get(`/cached_api/ticket_order/${id}/qrcode`, token(access_token))).status).toBe(200);
      // Issue 20, finding 9: the token in the address (where it lands in logs and history) no longer opens anything.
      expect((await stranger.get(`/api/ticket_order/${id}?access_token=${access_token}`)).status).toBe(404);
      expect((await stranger.get(`/cached_api/ticket_order/${id}/qrcode?access_token=${access_token}`)).status).toBe(404);
    });

    it('another browser cannot check out the cart, nor use a guest identity it did not create', async () => {
      const g = await guestWithCart();
      const stranger = new Browser(app);
      const theirs = await stranger.post(`/api/cart/${g.cartId}/guest_checkout`, {
        amount: g.outstanding,
        gateway_id: 'test',
        gateway_data: card(CARDS.ok),
        guest_identity_id: g.identityId,
      });
      expect([theirs.status, code(theirs)]).toEqual([403, 'cart_access_denied']);
      const other = await guestWithCart();
      const borrowed = await pay({ ...g, identityId: other.identityId }, card(CARDS.ok));
      expect([borrowed.status, code(borrowed)]).toEqual([403, 'identity_access_denied']);
      const none = await g.b.post(`/api/cart/${g.cartId}/pay`, { amount: g.outstanding, gateway_id: 'test', gateway_data: card(CARDS.ok) });
      expect([none.status, code(none)]).toEqual([400, 'validation_failed']);
      expect(await count('ticket_order', g.cartId)).toBe(0);
    });

    it('asks for required survey answers before payment', async () => {
      const g = await guestWithCart({
        lines: [{ ticket_type_id: fx.types.surveyed, event_session_id: await addSession(db(), fx, { from: clock.now() }) }],
      });
      const r = await pay(g, card(CARDS.ok));
      expect([r.status, code(r)]).toEqual([400, 'additional_info_validation_failed']);
      await g.b.post(`/api/cart/${g.cartId}/modify`, { additional_info: { [fx.groups.survey]: { visit_reason: 'history' } } });
      const ok = await pay(g, card(CARDS.ok));
      expect(ok.status).toBe(200);
      expect(ok.body.ticket._data[0].scan_code).toBeTruthy();
      const t = await db().selectFrom('ticket').select('additional_info').where('cart_id', '=', g.cartId).executeTakeFirstOrThrow();
      expect(t.additional_info).toEqual({ visit_reason: 'history' });
    });
  });

  describe('payment after the hold expired', () => {
    it('is refused when the released capacity was sold meanwhile, and never books beyond capacity', async () => {
      const session = await addSession(db(), fx, { from: clock.now(), capacity: 1 });
      const late = await guestWithCart({ lines: [{ ticket_type_id: fx.types.adult, event_session_id: session }] });
      clock.advance(901);
      const other = await guestWithCart({ lines: [{ ticket_type_id: fx.types.adult, event_session_id: session }] });
      const r = await pay(late, card(CARDS.ok));
      expect([r.status, code(r)]).toEqual([409, 'event_session_sold_out']);
      expect(await count('payment', late.cartId)).toBe(0);
      expect(await count('ticket_order', late.cartId)).toBe(0);
      expect((await pay(other, card(CARDS.ok))).status).toBe(200);
      const s = await db().selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow();
      expect(s.used_capacity).toBe(1);
      const booked = await db()
        .selectFrom('ticket')
        .select('id')
        .where('event_session_id', '=', session)
        .where('state', '=', 'booked')
        .execute();
      expect(booked).toHaveLength(1);
    });

    it('takes the capacity again and books when it is still free', async () => {
      const session = await addSession(db(), fx, { from: clock.now(), capacity: 1 });
      const late = await guestWithCart({ lines: [{ ticket_type_id: fx.types.adult, event_session_id: session }] });
      clock.advance(901);
      await sweepExpiredCarts(deps);
      expect(
        (await db().selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow()).used_capacity,
      ).toBe(0);
      const r = await pay(late, card(CARDS.ok));
      expect(r.status).toBe(200);
      expect(
        (await db().selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow()).used_capacity,
      ).toBe(1);
    });
  });
});

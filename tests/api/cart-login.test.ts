import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testClock, testDeps } from '../helpers/app';
import { AuthBrowser, DEMO_MEMBER, buildAuthApp, identityOfEmail, loadDemo } from '../helpers/auth';

/** Carts of logged-in users: owned by the user's identity, whatever browser they use. */
describeEachDatabase('carts of logged-in users', (ctx) => {
  let app: FastifyInstance;
  let sellerId: string;
  let sessionId: string;
  let adultTypeId: string;
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;
  const login = async () => {
    const b = new AuthBrowser(app);
    expect((await b.post('/api/login?_seller=demo', { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password })).status).toBe(200);
    return b;
  };

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    app = await buildAuthApp(testDeps(ctx(), clock.now));
    const ga = await db()
      .selectFrom('event_template')
      .select('id')
      .where('seller_id', '=', sellerId)
      .where('key', '=', 'general-admission')
      .executeTakeFirstOrThrow();
    const session = await db()
      .selectFrom('event_session')
      .select('id')
      .where('event_template_id', '=', ga.id)
      .where('start_datetime', '>', new Date(clock.now().getTime() + 86_400_000))
      .orderBy('start_datetime')
      .limit(1)
      .executeTakeFirstOrThrow();
    const adult = await db()
      .selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .select('ticket_type.id')
      .where('ticket_group.event_template_id', '=', ga.id)
      .where('ticket_group.key', '=', 'general')
      .where('ticket_type.key', '=', 'adult')
      .executeTakeFirstOrThrow();
    sessionId = session.id;
    adultTypeId = adult.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a cart made while logged in belongs to the identity: the user reaches it from another browser, a stranger does not', async () => {
    const first = await login();
    const made = await first.post('/api/cart/modify?_seller=demo', { add: [{ ticket_type_id: adultTypeId, event_session_id: sessionId }] });
    expect(made.status).toBe(200);
    const cart = made.body.cart._data[0];
    const member = await identityOfEmail(db(), sellerId, DEMO_MEMBER.email);
    expect(cart.identity_id).toBe(member.identity_id);

    const second = await login();
    expect((await second.get(`/api/cart/${cart.id}`)).status).toBe(200);

    const stranger = new AuthBrowser(app);
    const refused = await stranger.get(`/api/cart/${cart.id}`);
    expect(refused.status).toBe(403);
    expect(refused.code).toBe('cart_access_denied');
  });

  it('a guest who logs in during checkout keeps the cart and pays as themselves, without guest details', async () => {
    const b = new AuthBrowser(app);
    const group = await db().selectFrom('ticket_type').select('ticket_group_id').where('id', '=', adultTypeId).executeTakeFirstOrThrow();
    const made = await b.post('/api/cart/modify?_seller=demo', {
      add: [{ ticket_type_id: adultTypeId, event_session_id: sessionId }],
      additional_info: { [group.ticket_group_id]: { zip_code: '10024' } },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const cart = made.body.cart._data[0];
    expect(cart.ownedByPublicIdentity).toBe(true);
    expect((await b.post('/api/login?_seller=demo', { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password })).status).toBe(200);
    const outstanding =
      made.body.cart._data[0].cart_fees?.grand_totals?.total_outstanding ??
      (await b.get(`/api/cart/${cart.id}`)).body.cart._data[0].cart_fees.grand_totals.total_outstanding;
    const paid = await b.post(`/api/cart/${cart.id}/guest_checkout?_seller=demo`, {
      amount: outstanding,
      gateway_id: 'test',
      gateway_data: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const member = await identityOfEmail(db(), sellerId, DEMO_MEMBER.email);
    const order = await db().selectFrom('ticket_order').select('identity_id').where('cart_id', '=', cart.id).executeTakeFirstOrThrow();
    expect(order.identity_id).toBe(member.identity_id);
    const mine = await b.get('/api/my/ticket_order?_seller=demo');
    expect(mine.body.ticket_order._data.map((o: { cart_id: string }) => o.cart_id)).toContain(cart.id);
  });

  it("login with cart_id adopts this browser's guest cart, never another browser's", async () => {
    const group = await db().selectFrom('ticket_type').select('ticket_group_id').where('id', '=', adultTypeId).executeTakeFirstOrThrow();
    const fill = async (b: AuthBrowser) =>
      (
        await b.post('/api/cart/modify?_seller=demo', {
          add: [{ ticket_type_id: adultTypeId, event_session_id: sessionId }],
          additional_info: { [group.ticket_group_id]: { zip_code: '10024' } },
        })
      ).body.cart._data[0].id as string;
    const member = await identityOfEmail(db(), sellerId, DEMO_MEMBER.email);

    const other = new AuthBrowser(app);
    const othersCart = await fill(other);
    const b = new AuthBrowser(app);
    const mine = await fill(b);
    const login = await b.post('/api/login?_seller=demo', {
      username: DEMO_MEMBER.email,
      password: DEMO_MEMBER.password,
      cart_id: othersCart,
    });
    expect(login.status).toBe(200);
    const untouched = await db()
      .selectFrom('cart')
      .select(['identity_id', 'owner_token_hash'])
      .where('id', '=', othersCart)
      .executeTakeFirstOrThrow();
    expect(untouched.identity_id).not.toBe(member.identity_id);
    expect(untouched.owner_token_hash).not.toBeNull();
    expect((await other.get(`/api/cart/${othersCart}`)).status).toBe(200);

    const again = await b.post('/api/login?_seller=demo', { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password, cart_id: mine });
    expect(again.status).toBe(200);
    const adopted = await db()
      .selectFrom('cart')
      .select(['identity_id', 'owner_token_hash'])
      .where('id', '=', mine)
      .executeTakeFirstOrThrow();
    expect(adopted).toEqual({ identity_id: member.identity_id, owner_token_hash: null });
    const read = await b.get(`/api/cart/${mine}`);
    expect(read.body.cart._data[0].ownedByPublicIdentity).toBe(false);
  });
});

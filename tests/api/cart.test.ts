import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { startCartSweeper, sweepExpiredCarts } from '../../server/jobs/cart-sweeper';
import type { Deps } from '../../server/deps';

describeEachDatabase('cart API', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let deps: Deps;
  const clock = testClock();
  const db = () => ctx().db;
  const used = async (sessionId: string) =>
    (await db().selectFrom('event_session').select('used_capacity').where('id', '=', sessionId).executeTakeFirstOrThrow()).used_capacity;
  const line = (ticket_type_id: string, event_session_id: string | null, extra: Record<string, unknown> = {}) => ({
    ticket_type_id,
    event_session_id,
    ...extra,
  });
  const create = (b: Browser, add: unknown[], extra: Record<string, unknown> = {}) =>
    b.post(`/api/cart/modify?_seller=${fx.slug}`, { add, ...extra });
  const code = (r: { body: any }) => r.body?._data?.[0]?._code;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { now: clock.now() });
    deps = testDeps(ctx(), clock.now);
    app = await buildTestApp(deps);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('reserve', () => {
    it('creates a cart owned by an httpOnly SameSite=Lax cookie, prices on the server and takes capacity', async () => {
      const b = new Browser(app);
      const session = await addSession(db(), fx, { from: clock.now() });
      const r = await create(b, [
        line(fx.types.adult, session, { face_value: '0.01' }),
        line(fx.types.adult, session),
        line(fx.types.child, session),
      ]);
      expect(r.status).toBe(200);
      const cookie = r.res.cookies.find((c) => c.name === 'storefront_cart_owner')!;
      expect(cookie.value).toMatch(/^[0-9a-f]{32}$/);
      expect(cookie.httpOnly).toBe(true);
      expect(String(cookie.sameSite).toLowerCase()).toBe('lax');
      const cart = r.body.cart._data[0];
      expect(cart.state).toBe('pending');
      expect(cart.expires_in).toBe(900);
      expect(cart.ownedByPublicIdentity).toBe(true);
      expect(r.body.ticket._count).toBe(3);
      expect(r.body.ticket._data.map((t: any) => t.face_value).sort()).toEqual(['15.00', '25.00', '25.00']);
      expect(r.body.ticket._data.every((t: any) => t.state === 'in_cart' && t.scan_code === null)).toBe(true);
      expect(cart.cart_fees.grand_totals).toEqual({
        total_before_cartmod_price: '65.00',
        total_fee_fixed_outside: '3.00',
        total_fee_percent_outside: '1.50',
        total_cartmod_amount: '0.00',
        total_payments: '0.00',
        total_outstanding: '69.50',
      });
      expect(cart.items).toHaveLength(1);
      expect(cart.items[0].types.map((t: any) => t.ticketCount).sort()).toEqual([1, 2]);
      expect(await used(session)).toBe(3);
      const row = await db().selectFrom('cart').select(['owner_token_hash']).where('id', '=', cart.id).executeTakeFirstOrThrow();
      expect(row.owner_token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.owner_token_hash).not.toContain(cookie.value);
    });

    it('accepts the reserve body form with survey answers, and validates answers against the group spec', async () => {
      const b = new Browser(app);
      const bad = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
        create: { channel_id: 'web', campaign: 'spring' },
        reserve: {
          tickets: [line(fx.types.surveyed, fx.sessionId)],
          additional_info: { data: { [fx.groups.survey]: { visit_reason: 'sport' } } },
        },
      });
      expect(bad.status).toBe(400);
      expect(code(bad)).toBe('additional_info_validation_failed');
      const ok = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
        create: { channel_id: 'web', campaign: 'spring' },
        reserve: {
          tickets: [line(fx.types.surveyed, fx.sessionId)],
          additional_info: { data: { [fx.groups.survey]: { visit_reason: 'art', age: 40 } } },
        },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.cart._data[0].campaign).toBe('spring');
      expect(ok.body.cart._data[0].additional_info[fx.groups.survey]).toEqual({ visit_reason: 'art', age: 40 });
    });

    it('takes a flexible price only within min and max', async () => {
      const b = new Browser(app);
      for (const face_value of ['0.50', '1000.01', null, 'abc']) {
        const r = await create(b, [line(fx.types.donation, null, { face_value })]);
        expect(r.status).toBe(400);
        expect(r.body._data[0]).not.toHaveProperty('_description');
      }
      const r = await create(b, [line(fx.types.donation, null, { face_value: '12.34' })]);
      expect(r.status).toBe(200);
      expect(r.body.ticket._data[0].face_value).toBe('12.34');
      const g = await db()
        .selectFrom('ticket_group')
        .select('used_capacity')
        .where('id', '=', fx.groups.donation)
        .executeTakeFirstOrThrow();
      expect(g.used_capacity).toBeGreaterThanOrEqual(1);
    });

    it('enforces min and max tickets per order of a group', async () => {
      const b = new Browser(app);
      const one = await create(b, [line(fx.types.family, fx.sessionId)]);
      expect([one.status, code(one)]).toEqual([400, 'min_tickets_per_order_not_met']);
      const five = await create(
        b,
        Array.from({ length: 5 }, () => line(fx.types.family, fx.sessionId)),
      );
      expect([five.status, code(five)]).toEqual([400, 'max_tickets_per_order_exceeded']);
      const two = await create(b, [line(fx.types.family, fx.sessionId), line(fx.types.family, fx.sessionId)]);
      expect(two.status).toBe(200);
      const id = two.body.cart._data[0].id;
      const three = await b.post(`/api/cart/${id}/modify`, { add: Array.from({ length: 3 }, () => line(fx.types.family, fx.sessionId)) });
      expect([three.status, code(three)]).toEqual([400, 'max_tickets_per_order_exceeded']);
      const removeOne = await b.post(`/api/cart/${id}/remove`, { tickets: [two.body.ticket._data[0].id] });
      expect([removeOne.status, code(removeOne)]).toEqual([400, 'min_tickets_per_order_not_met']);
      expect((await b.get(`/api/cart/${id}`)).body.ticket._count).toBe(2);
    });

    it('a named rule needs a name on at least its minimum of tickets', async () => {
      const rule = await db()
        .insertInto('ticket_rule')
        .values({ ticket_group_id: fx.groups.family, named: 'yes', min: 1, max: 4 })
        .returning('id')
        .executeTakeFirstOrThrow();
      try {
        const b = new Browser(app);
        const unnamed = await create(b, [line(fx.types.family, fx.sessionId), line(fx.types.family, fx.sessionId)]);
        expect([unnamed.status, code(unnamed)]).toEqual([400, 'validation_failed']);
        expect(unnamed.body._data[0]._extra).toMatchObject({ field: 'admit_name', required: 1 });
        const named = await create(b, [
          line(fx.types.family, fx.sessionId, { admit_name: 'Ada Lovelace' }),
          line(fx.types.family, fx.sessionId),
        ]);
        expect(named.status).toBe(200);
        expect(named.body.ticket._data.map((t: { admit_name: string | null }) => t.admit_name).sort()).toEqual(['Ada Lovelace', null]);
      } finally {
        await db().deleteFrom('ticket_rule').where('id', '=', rule.id).execute();
      }
    });

    it('caps one ticket type at 1000 per order (a seller without hold limits)', async () => {
      const seller = await db().selectFrom('seller').select(['id', 'config']).where('slug', '=', fx.slug).executeTakeFirstOrThrow();
      const limitsOff = { ...seller.config, cart: { ...seller.config.cart, limits: { held_per_visitor: 0, held_per_address: 0 } } };
      await db()
        .updateTable('seller')
        .set({ config: JSON.stringify(limitsOff) })
        .where('id', '=', seller.id)
        .execute();
      onTestFinished(async () => {
        await db()
          .updateTable('seller')
          .set({ config: JSON.stringify(seller.config) })
          .where('id', '=', seller.id)
          .execute();
      });
      const b = new Browser(app);
      const unlimited = await addSession(db(), fx, { from: clock.now(), capacity: -1 });
      const first = await create(
        b,
        Array.from({ length: 1000 }, () => line(fx.types.infant, unlimited)),
      );
      expect(first.status).toBe(200);
      const more = await b.post(`/api/cart/${first.body.cart._data[0].id}/modify`, { add: [line(fx.types.infant, unlimited)] });
      expect([more.status, code(more)]).toEqual([400, 'max_tickets_per_order_exceeded']);
    });

    it('refuses members-only groups to guests, started sessions, and unknown types', async () => {
      const b = new Browser(app);
      const member = await create(b, [line(fx.types.member, fx.sessionId)]);
      expect([member.status, code(member)]).toEqual([403, 'rule_blocks_reserve']);
      const past = await create(b, [line(fx.types.adult, fx.pastSessionId)]);
      expect([past.status, code(past)]).toEqual([409, 'event_session_sold_out']);
      const unknown = await create(b, [line('00000000-0000-4000-8000-000000000000', fx.sessionId)]);
      expect(unknown.status).toBe(404);
      const badId = await create(b, [line('not-a-uuid', fx.sessionId)]);
      expect([badId.status, code(badId)]).toEqual([400, 'validation_failed']);
      const noHeader = await app.inject({ method: 'POST', url: `/api/cart/modify?_seller=${fx.slug}`, payload: { add: [] } });
      expect(noHeader.statusCode).toBe(403);
    });

    it('distinguishes session_capacity_exceeded from event_session_sold_out', async () => {
      const session = await addSession(db(), fx, { from: clock.now(), capacity: 2 });
      const b = new Browser(app);
      const three = await create(
        b,
        [1, 2, 3].map(() => line(fx.types.adult, session)),
      );
      expect([three.status, code(three), three.body._data[0]._context]).toEqual([409, 'session_capacity_exceeded', 'reserve']);
      expect(three.body._data[0]._extra.available).toBe(2);
      expect(
        (
          await create(
            b,
            [1, 2].map(() => line(fx.types.adult, session)),
          )
        ).status,
      ).toBe(200);
      const after = await create(new Browser(app), [line(fx.types.adult, session)]);
      expect([after.status, code(after)]).toEqual([409, 'event_session_sold_out']);
      expect(await used(session)).toBe(2);
    });
  });

  it('groups excluded from event capacity leave the session counter alone; sales windows are enforced', async () => {
    const newGroup = async (key: string, extra: Record<string, unknown>) => {
      const g = await db()
        .insertInto('ticket_group')
        .values({
          seller_id: fx.sellerId,
          event_template_id: fx.eventId,
          key,
          name: key,
          handler: 'tickets',
          meta: '{}',
          config: '{}',
          ...extra,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      return (
        await db()
          .insertInto('ticket_type')
          .values({ seller_id: fx.sellerId, ticket_group_id: g.id, key: 't', name: 'T', price: 700, outside_fees: '[]', meta: '{}' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    };
    const session = await addSession(db(), fx, { from: clock.now(), capacity: 1 });
    const excluded = await newGroup('tour-addon', { exclude_from_event_capacity: true, capacity: 3 });
    const b = new Browser(app);
    const r = await create(
      b,
      [1, 2, 3].map(() => line(excluded, session)),
    );
    expect(r.status).toBe(200);
    expect(await used(session)).toBe(0);
    const fourth = await create(b, [line(excluded, session)]);
    expect([fourth.status, code(fourth)]).toEqual([409, 'ticket_group_sold_out']);
    const stg = await db().selectFrom('session_ticket_group').selectAll().where('event_session_id', '=', session).execute();
    expect(stg.map((s) => [s.capacity, s.used_capacity])).toEqual([[3, 3]]);

    const over = await newGroup('over', { sales_end: new Date(clock.now().getTime() - 1000) });
    const notYet = await newGroup('later', { sales_start: new Date(clock.now().getTime() + 3600_000) });
    for (const t of [over, notYet]) {
      const refused = await create(b, [line(t, fx.otherSessionId)]);
      expect([refused.status, code(refused)]).toEqual([409, 'ticket_group_sold_out']);
    }
  });

  describe('modify, remove, delete, extend', () => {
    it('removes tickets and gives their capacity back; unknown tickets are 404', async () => {
      const session = await addSession(db(), fx, { from: clock.now() });
      const b = new Browser(app);
      const r = await create(b, [line(fx.types.adult, session), line(fx.types.child, session)]);
      const id = r.body.cart._data[0].id;
      const [t1, t2] = r.body.ticket._data.map((t: any) => t.id);
      const removed = await b.post(`/api/cart/${id}/remove`, { tickets: [t1] });
      expect(removed.status).toBe(200);
      expect(removed.body.ticket._data.map((t: any) => t.id)).toEqual([t2]);
      expect(await used(session)).toBe(1);
      const again = await b.post(`/api/cart/${id}/remove`, { tickets: [t1] });
      expect([again.status, code(again)]).toEqual([404, 'ticket_not_found']);
      const swap = await b.post(`/api/cart/${id}/modify`, {
        remove: { tickets: [t2] },
        add: [line(fx.types.adult, session), line(fx.types.adult, session)],
      });
      expect(swap.status).toBe(200);
      expect(swap.body.ticket._count).toBe(2);
      expect(await used(session)).toBe(2);
    });

    it('DELETE cancels the cart and releases its capacity', async () => {
      const session = await addSession(db(), fx, { from: clock.now() });
      const b = new Browser(app);
      const id = (await create(b, [line(fx.types.adult, session)])).body.cart._data[0].id;
      expect((await b.delete(`/api/cart/${id}`)).status).toBe(200);
      expect(await used(session)).toBe(0);
      expect((await b.get(`/api/cart/${id}`)).body.cart._data[0].state).toBe('cancelled');
      const later = await b.post(`/api/cart/${id}/modify`, { add: [line(fx.types.adult, session)] });
      expect([later.status, code(later)]).toEqual([409, 'cart_not_pending']);
    });

    it('allows one extension of 2 minutes', async () => {
      const b = new Browser(app);
      const id = (await create(b, [line(fx.types.adult, fx.sessionId)])).body.cart._data[0].id;
      const ext = await b.patch(`/api/my/cart/${id}`, { expires_at: new Date().toISOString() });
      expect(ext.status).toBe(200);
      expect(ext.body.cart._data[0].expires_in).toBe(900 + 120);
      const twice = await b.patch(`/api/my/cart/${id}`, {});
      expect([twice.status, code(twice)]).toEqual([409, 'cart_extension_used']);
    });
  });

  describe('expiry', () => {
    it('emptying and refilling a cart does not start its hold again (issue 20, finding 6)', async () => {
      const b = new Browser(app);
      const made = await create(b, [line(fx.types.adult, fx.sessionId)]);
      const cart = made.body.cart._data[0];
      const expiresAt = cart.expires_at;
      clock.advance(600);
      const emptied = await b.post(`/api/cart/${cart.id}/remove`, { tickets: made.body.ticket._data.map((t: { id: string }) => t.id) });
      expect(emptied.status).toBe(200);
      const refilled = await b.post(`/api/cart/${cart.id}/modify`, { add: [line(fx.types.adult, fx.sessionId)] });
      expect(refilled.status).toBe(200);
      expect(refilled.body.cart._data[0].expires_at).toBe(expiresAt);
      expect(refilled.body.cart._data[0].expires_in).toBe(900 - 600);
    });

    it('a full session frees up at expiry on the next reservation, and the expired cart reads as expired', async () => {
      const session = await addSession(db(), fx, { from: clock.now(), capacity: 2 });
      const a = new Browser(app);
      const cartA = (await create(a, [line(fx.types.adult, session), line(fx.types.adult, session)])).body.cart._data[0].id;
      const b = new Browser(app);
      expect(code(await create(b, [line(fx.types.adult, session)]))).toBe('event_session_sold_out');
      clock.advance(901);
      const taken = await create(b, [line(fx.types.adult, session), line(fx.types.adult, session)]);
      expect(taken.status).toBe(200);
      expect(await used(session)).toBe(2);
      const readA = await a.get(`/api/cart/${cartA}?all_tickets=true`);
      expect(readA.body.cart._data[0].state).toBe('expired');
      expect(readA.body.ticket._data.every((t: any) => t.state === 'cancelled')).toBe(true);
      const modA = await a.post(`/api/cart/${cartA}/modify`, { add: [line(fx.types.adult, session)] });
      expect([modA.status, code(modA)]).toEqual([410, 'cart_expired']);
      expect(await used(session)).toBe(2);
    });

    it('a read of a cart past its time releases the hold exactly once', async () => {
      const session = await addSession(db(), fx, { from: clock.now(), capacity: 5 });
      const a = new Browser(app);
      const id = (await create(a, [line(fx.types.adult, session), line(fx.types.child, session)])).body.cart._data[0].id;
      expect(await used(session)).toBe(2);
      clock.advance(900);
      const r1 = await a.get(`/api/cart/${id}`);
      expect(r1.body.cart._data[0].state).toBe('expired');
      expect(r1.body.ticket._count).toBe(0);
      await a.get(`/api/cart/${id}`);
      // A second release would drive the counter below 0 (refused by its CHECK) or leave it wrong.
      await sweepExpiredCarts(deps);
      expect(await used(session)).toBe(0);
      const cancelled = await db().selectFrom('ticket').select('state').where('cart_id', '=', id).execute();
      expect(cancelled.map((t) => t.state)).toEqual(['cancelled', 'cancelled']);
    });

    it('the sweeper releases expired holds once, whatever the number of sweeps', async () => {
      await sweepExpiredCarts(deps);
      const session = await addSession(db(), fx, { from: clock.now(), capacity: 5 });
      for (let i = 0; i < 3; i++) await create(new Browser(app), [line(fx.types.adult, session)]);
      expect(await used(session)).toBe(3);
      clock.advance(899);
      expect(await sweepExpiredCarts(deps)).toBe(0);
      clock.advance(2);
      const sweeps = await Promise.all([sweepExpiredCarts(deps), sweepExpiredCarts(deps), sweepExpiredCarts(deps)]);
      expect(sweeps.reduce((s, n) => s + n, 0)).toBeGreaterThanOrEqual(3);
      expect(await used(session)).toBe(0);
      const live = await db()
        .selectFrom('ticket')
        .select('id')
        .where('event_session_id', '=', session)
        .where('state', '=', 'in_cart')
        .execute();
      expect(live).toHaveLength(0);
    });
  });

  it('startCartSweeper releases expired holds on its own and stops', async () => {
    const session = await addSession(db(), fx, { from: clock.now(), capacity: 5 });
    await create(new Browser(app), [line(fx.types.adult, session)]);
    const stop = startCartSweeper(deps, 20);
    try {
      clock.advance(901);
      for (let i = 0; i < 100 && (await used(session)) !== 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await used(session)).toBe(0);
    } finally {
      stop();
    }
  });

  describe('ownership', () => {
    it('another browser cannot read, modify, remove, delete or extend the cart', async () => {
      const owner = new Browser(app);
      const r = await create(owner, [line(fx.types.adult, fx.sessionId), line(fx.types.adult, fx.sessionId)]);
      const id = r.body.cart._data[0].id;
      const ticket = r.body.ticket._data[0].id;
      const stranger = new Browser(app);
      await create(stranger, [line(fx.types.child, fx.sessionId)]);
      const anonymous = new Browser(app);
      for (const who of [stranger, anonymous]) {
        const attempts = [
          await who.get(`/api/cart/${id}`),
          await who.post(`/api/cart/${id}/modify`, { add: [line(fx.types.adult, fx.sessionId)] }),
          await who.post(`/api/cart/${id}/remove`, { tickets: [ticket] }),
          await who.delete(`/api/cart/${id}`),
          await who.patch(`/api/my/cart/${id}`, {}),
        ];
        for (const a of attempts) expect([a.status, code(a)]).toEqual([403, 'cart_access_denied']);
      }
      const missing = await owner.get('/api/cart/00000000-0000-4000-8000-000000000000');
      expect([missing.status, code(missing)]).toEqual([404, 'not_found']);
      const mine = await owner.get(`/api/cart/${id}`);
      expect(mine.body.ticket._count).toBe(2);
      expect(mine.res.headers['cache-control']).toBe('private, no-store');
    });
  });
});

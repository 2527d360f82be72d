import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';

/**
 * The on-sale path (issue 19): a new guest cart reserved in at most 3 statements (seller, one read, one
 * data-modifying statement), none of them in a transaction, so no row lock outlives its statement. Every statement
 * the server sends is counted (BEGIN and COMMIT too), through the database's log hook.
 */
const sent: string[] = [];
describeEachDatabase(
  'statements per reservation',
  (ctx) => {
    let app: FastifyInstance;
    let fx: CartFixture;
    const clock = testClock();
    let nextAddress = 1;
    const visitor = () => new Browser(app, `10.90.0.${nextAddress++}`);
    const line = (ticket_type_id: string, event_session_id: string) => ({ ticket_type_id, event_session_id });
    /** The statements one request sends (tests in a file run one after another, and nothing else runs meanwhile). */
    const counted = async <T>(run: () => Promise<T>) => {
      sent.length = 0;
      const result = await run();
      return { result, statements: [...sent] };
    };

    beforeAll(async () => {
      fx = await insertCartFixture(ctx().db, { now: clock.now() });
      app = await buildTestApp(testDeps(ctx(), clock.now));
      // The seller's guest identity is made by the first cart (the locked path); from then on it is known.
      await visitor().post(`/api/cart/modify?_seller=${fx.slug}`, { add: [line(fx.types.adult, await addSession(ctx().db, fx))] });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('a new cart with tickets of one session: at most 3 statements, no transaction, the answer GET cart gives', async () => {
      const session = await addSession(ctx().db, fx, { from: clock.now(), capacity: 5 });
      const b = visitor();
      const { result: r, statements } = await counted(() =>
        b.post(`/api/cart/modify?_seller=${fx.slug}`, {
          add: [line(fx.types.adult, session), line(fx.types.adult, session), line(fx.types.child, session)],
        }),
      );
      console.log(`[${ctx().kind}] one-statement reserve: ${statements.length} statements`);
      expect(r.status).toBe(200);
      expect(statements.length).toBeLessThanOrEqual(3);
      expect(statements.filter((s) => /^\s*(begin|commit)/i.test(s))).toEqual([]);
      const cartId = r.body.cart._data[0].id;
      expect(r.body.ticket._count).toBe(3);
      // Built from what the statements returned, it is the cart as it is stored.
      expect((await b.get(`/api/cart/${cartId}`)).body).toEqual(r.body);
      const s = await ctx().db.selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow();
      expect(s.used_capacity).toBe(3);
      // The hold committed asynchronously, for its own transaction only: PGlite's one session is back to synchronous.
      if (ctx().kind === 'pglite') {
        const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(ctx().db);
        expect(rows[0].synchronous_commit).toBe('on');
      }

      // The same visitor adding to its cart takes the locked path (its cart row and hold locks): counted for the record.
      const more = await counted(() => b.post(`/api/cart/${cartId}/modify`, { add: [line(fx.types.adult, session)] }));
      expect(more.result.status).toBe(200);
      console.log(`[${ctx().kind}] locked path (add to an existing cart): ${more.statements.length} statements`);
    });

    it("with READ_CACHE_MS on, the seller and the catalogue come from memory: one statement, capacity still the row's", async () => {
      const deps = testDeps(ctx(), clock.now);
      const cached = await buildTestApp({ ...deps, config: { ...deps.config, readCacheMs: 60_000 } });
      try {
        const session = await addSession(ctx().db, fx, { from: clock.now(), capacity: 2 });
        const guest = () => new Browser(cached, `10.91.0.${nextAddress++}`);
        const reserve = () => guest().post(`/api/cart/modify?_seller=${fx.slug}`, { add: [line(fx.types.adult, session)] });
        expect((await reserve()).status).toBe(200);
        const second = await counted(reserve);
        console.log(`[${ctx().kind}] one-statement reserve, seller and catalogue cached: ${second.statements.length} statements`);
        expect(second.result.status).toBe(200);
        expect(second.statements.length).toBe(1);
        // The cached catalogue still says 0 of 2 taken: the reserving statement reads the row and refuses the third.
        const third = await reserve();
        expect([third.status, third.body._data[0]._code]).toEqual([409, 'event_session_sold_out']);
        const s = await ctx().db.selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow();
        expect(s.used_capacity).toBe(2);

        // A session called off after its catalogue was kept: the reserving statement reads its state, the kept row
        // does not decide.
        const other = await addSession(ctx().db, fx, { from: clock.now(), capacity: 5 });
        const buy = () => guest().post(`/api/cart/modify?_seller=${fx.slug}`, { add: [line(fx.types.adult, other)] });
        expect((await buy()).status).toBe(200);
        await ctx().db.updateTable('event_session').set({ state: 'cancelled' }).where('id', '=', other).execute();
        const late = await buy();
        expect([late.status, late.body._data[0]._code, late.body._data[0]._extra?.reason]).toEqual([
          409,
          'event_session_sold_out',
          'session_unavailable',
        ]);
      } finally {
        await cached.close();
      }
    });

    it('a full session is refused in one more read, as the locked path words it, without a transaction', async () => {
      const session = await addSession(ctx().db, fx, { from: clock.now(), capacity: 1 });
      expect((await visitor().post(`/api/cart/modify?_seller=${fx.slug}`, { add: [line(fx.types.adult, session)] })).status).toBe(200);
      const { result: r, statements } = await counted(() =>
        visitor().post(`/api/cart/modify?_seller=${fx.slug}`, { add: [line(fx.types.adult, session)] }),
      );
      console.log(`[${ctx().kind}] sold-out refusal: ${statements.length} statements`);
      expect([r.status, r.body._data[0]._code, r.body._data[0]._extra]).toEqual([
        409,
        'event_session_sold_out',
        { event_session_id: session },
      ]);
      expect(statements.length).toBeLessThanOrEqual(4);
      expect(statements.filter((q) => /^\s*(begin|commit)/i.test(q))).toEqual([]);
    });

    it('a full session whose place an expired cart holds goes the locked way, which frees it, and sells it', async () => {
      const session = await addSession(ctx().db, fx, { from: clock.now(), capacity: 1 });
      const first = await visitor().post(`/api/cart/modify?_seller=${fx.slug}`, { add: [line(fx.types.adult, session)] });
      expect(first.status).toBe(200);
      await ctx()
        .db.updateTable('cart')
        .set({ expires_at: new Date(clock.now().getTime() - 1000) })
        .where('id', '=', first.body.cart._data[0].id)
        .execute();
      const second = await visitor().post(`/api/cart/modify?_seller=${fx.slug}`, { add: [line(fx.types.adult, session)] });
      expect(second.status).toBe(200);
      const s = await ctx().db.selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow();
      expect(s.used_capacity).toBe(1);
    });

    it('a refusal is worded as the locked path words it, and leaves nothing behind', async () => {
      const session = await addSession(ctx().db, fx, { from: clock.now(), capacity: 2 });
      const r = await visitor().post(`/api/cart/modify?_seller=${fx.slug}`, {
        add: [line(fx.types.adult, session), line(fx.types.adult, session), line(fx.types.adult, session)],
      });
      expect([r.status, r.body._data[0]._code]).toEqual([409, 'session_capacity_exceeded']);
      const s = await ctx().db.selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow();
      expect(s.used_capacity).toBe(0);
      const held = await ctx().db.selectFrom('ticket').select('id').where('event_session_id', '=', session).execute();
      expect(held).toEqual([]);
    });
  },
  undefined,
  { onQuery: (sql) => sent.push(sql) },
);

import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { setUnsafeSkipCapacityGuardForTests } from '../../server/services/inventory';

/**
 * 100 guests reserve 1 ticket each, all at once, against a session of capacity 20. On PostgreSQL the
 * requests run on a pool of 20 connections, so the transactions truly overlap.
 */
describeEachDatabase('concurrent reservations', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  const db = () => ctx().db;

  beforeAll(async () => {
    fx = await insertCartFixture(db());
    app = await buildTestApp(testDeps(ctx()));
  });
  afterAll(async () => {
    setUnsafeSkipCapacityGuardForTests(false);
    await app?.close();
  });

  async function race(sessionId: string, n = 100) {
    // Each buyer on an address of its own: buyers from one address are serialised by the hold limits' lock, and the
    // race must really run side by side.
    const browsers = Array.from({ length: n }, (_, i) => new Browser(app, `10.60.${Math.floor(i / 250)}.${(i % 250) + 1}`));
    const started = performance.now();
    const results = await Promise.all(
      browsers.map((b) =>
        b.post(`/api/cart/modify?_seller=${fx.slug}`, { add: [{ ticket_type_id: fx.types.adult, event_session_id: sessionId }] }),
      ),
    );
    const ms = Math.round(performance.now() - started);
    const held = await db()
      .selectFrom('ticket')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('event_session_id', '=', sessionId)
      .where('state', '=', 'in_cart')
      .executeTakeFirstOrThrow();
    const session = await db()
      .selectFrom('event_session')
      .select(['used_capacity', 'capacity'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    return { results, ms, held: held.n, used: session.used_capacity };
  }

  it('100 simultaneous reservations of 1 ticket against capacity 20: exactly 20 held, 80 sold out', async () => {
    const sessionId = await addSession(db(), fx, { capacity: 20 });
    const { results, ms, held, used } = await race(sessionId);
    const ok = results.filter((r) => r.status === 200);
    const soldOut = results.filter((r) => r.status === 409 && r.body._data[0]._code === 'event_session_sold_out');
    console.log(`[${ctx().kind}] guarded: 100 reservations in ${ms} ms, ${ok.length} held, ${soldOut.length} sold out`);
    expect(ok).toHaveLength(20);
    expect(soldOut).toHaveLength(80);
    for (const r of soldOut) expect(r.body._data[0]._context).toBe('reserve');
    expect(held).toBe(20);
    expect(used).toBe(20);
  }, 60_000);

  describe('control: the guard switched off', () => {
    it('observes the oversell the guard prevents', async () => {
      // The schema's CHECK constraints are a second, last-resort guard; the control removes them in this
      // test's own schema to see what the conditional update alone prevents.
      await sql`alter table event_session drop constraint event_session_capacity_ck`.execute(db());
      await sql`alter table session_ticket_group drop constraint session_ticket_group_capacity_ck`.execute(db());
      setUnsafeSkipCapacityGuardForTests(true);
      try {
        const sessionId = await addSession(db(), fx, { capacity: 20 });
        const { results, ms, held, used } = await race(sessionId);
        const ok = results.filter((r) => r.status === 200).length;
        console.log(`[${ctx().kind}] unguarded control: 100 reservations in ${ms} ms, ${ok} held (capacity 20)`);
        expect(held).toBeGreaterThan(20);
        expect(used).toBeGreaterThan(20);
      } finally {
        setUnsafeSkipCapacityGuardForTests(false);
      }
    }, 60_000);
  });
});

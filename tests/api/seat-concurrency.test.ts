import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { concert, type Concert } from '../helpers/seating';
import { loadSellerFolder } from '../../server/catalog/loader';

/**
 * 50 shoppers reserve the same seat at the same moment (issue 15; OWASP ASVS 2.3.4): exactly one holds it. On
 * PostgreSQL the requests (from 50 addresses, so no per-visitor or per-address hold lock orders them) run on a pool of
 * 20 connections, so the transactions truly overlap; PGlite runs them one
 * after another through its queue, which is where a read-then-write check would pass for a guard and fail here.
 */
const NOW = new Date('2026-05-04T13:00:00Z');

describeEachDatabase(
  'concurrent seat reservations',
  (ctx) => {
    let app: FastifyInstance;
    let c: Concert;
    const db = () => ctx().db;

    beforeAll(async () => {
      app = await buildTestApp(testDeps(ctx(), () => NOW));
      c = await concert(app);
    });
    afterAll(async () => {
      await app?.close();
    });

    async function race(seatName: string, n = 50) {
      const seatId = c.seat(seatName);
      const started = performance.now();
      const results = await Promise.all(
        // Each shopper from an address of its own: the per-address hold lock would otherwise queue them one by one.
        Array.from({ length: n }, (_, i) =>
          new Browser(app, `10.15.${Math.floor(i / 250)}.${(i % 250) + 1}`).post('/api/cart/modify?_seller=demo', {
            add: [{ ticket_type_id: c.types.orchestra.adult, event_session_id: c.sessionId, seat_id: seatId }],
          }),
        ),
      );
      const ms = Math.round(performance.now() - started);
      const holders = await db()
        .selectFrom('ticket')
        .select(sql<number>`count(distinct cart_id)::int`.as('n'))
        .where('event_session_id', '=', c.sessionId)
        .where('seat_id', '=', seatId)
        .where('state', 'in', ['in_cart', 'held', 'booked', 'redeemed'])
        .executeTakeFirstOrThrow();
      return { results, ms, holders: holders.n };
    }

    it('50 carts at one seat at once: exactly one holds it, 49 are told it is taken', async () => {
      const { results, ms, holders } = await race('ORCH-C7');
      const ok = results.filter((r) => r.status === 200);
      const taken = results.filter((r) => r.status === 409 && r.body._data[0]._code === 'seat_unavailable');
      console.log(`[${ctx().kind}] guarded: 50 reservations of one seat in ${ms} ms, ${ok.length} held, ${taken.length} refused`);
      expect(ok).toHaveLength(1);
      expect(taken).toHaveLength(49);
      for (const r of taken) expect(r.body._data[0]._extra).toEqual({ seat_ids: [c.seat('ORCH-C7')], reason: 'taken' });
      expect(holders).toBe(1);
      // Capacity taken only for the one held ticket: the refused transactions rolled back whole.
      const usage = await db()
        .selectFrom('session_ticket_group')
        .select('used_capacity')
        .where('event_session_id', '=', c.sessionId)
        .where('ticket_group_id', '=', c.groups.orchestra)
        .executeTakeFirstOrThrow();
      expect(usage.used_capacity).toBe(1);
    }, 60_000);

    describe('control: the guard switched off', () => {
      it('double-books the seat', async () => {
        // The guard is the database's unique index on live (session, seat) tickets; the control drops it in this
        // test's own database to see what it prevents. The service has no read-before-write check that could hide it.
        await sql`drop index ticket_session_seat_uq`.execute(db());
        const { results, ms, holders } = await race('ORCH-D4');
        const ok = results.filter((r) => r.status === 200).length;
        console.log(`[${ctx().kind}] unguarded control: 50 reservations of one seat in ${ms} ms, ${ok} carts hold it`);
        expect(holders).toBeGreaterThan(1);
      }, 60_000);
    });
  },
  async (h) => {
    await loadSellerFolder(h.db, path.resolve('sellers/demo'), { now: NOW });
  },
);

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { todayAt } from '../../src/domain/dates';

/**
 * Uncached reads of events (issue 19): the seller, the events' contexts (event, venue, groups, types and rules in one
 * statement, server/services/event-context.ts) and the read itself. Every statement the server sends is counted
 * through the database's log hook; the API tests run with READ_CACHE_MS=0, so nothing comes from memory.
 */
const sent: string[] = [];
describeEachDatabase(
  'statements per uncached event read',
  (ctx) => {
    let app: FastifyInstance;
    let fx: CartFixture;
    const clock = testClock();
    const counted = async (path: string) => {
      sent.length = 0;
      const r = await new Browser(app, '10.92.0.1').get(path);
      return { status: r.status, body: r.body, statements: [...sent] };
    };

    beforeAll(async () => {
      fx = await insertCartFixture(ctx().db, { now: clock.now() });
      app = await buildTestApp(testDeps(ctx(), clock.now));
    });
    afterAll(async () => {
      await app?.close();
    });

    it('a calendar is three statements: the seller, the event context and the days', async () => {
      const r = await counted(`/api/events/${fx.eventId}/calendar?_seller=${fx.slug}&_format=extended`);
      expect(r.status).toBe(200);
      expect(r.body.calendar._count).toBe(120);
      expect(r.statements).toHaveLength(3);
    });

    it("a day's sessions are three statements: the seller, the event context and the sessions with their counters", async () => {
      const day = todayAt('America/New_York', new Date(clock.now().getTime() + 86_400_000));
      const r = await counted(`/api/events/${fx.eventId}/sessions?_seller=${fx.slug}&start_datetime._ondate=${day}&sold_out=T`);
      expect(r.status).toBe(200);
      expect(r.statements).toHaveLength(3);
    });

    it("a listing with its events' venues is four statements: the seller, the events, their next sessions, their contexts", async () => {
      const r = await counted(`/api/events/available?_seller=${fx.slug}&hidden_type._in=public_browsable&_embed=venue,meta`);
      expect(r.status).toBe(200);
      expect(r.body.event_template._count).toBeGreaterThan(0);
      expect(r.body.venue._count).toBe(1);
      expect(r.statements).toHaveLength(4);
    });

    it('an event that is not there is two statements and the spec error', async () => {
      const r = await counted(`/api/events/00000000-0000-4000-8000-000000000000/calendar?_seller=${fx.slug}`);
      expect([r.status, r.body._data[0]._code]).toEqual([404, 'event_not_found']);
      expect(r.statements).toHaveLength(2);
    });
  },
  undefined,
  { onQuery: (q) => sent.push(q) },
);

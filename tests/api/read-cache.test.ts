import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';

/** Public catalogue reads answered from memory for a second, and never after a write (server/http/read-cache.ts). */
describeEachDatabase('read cache', (ctx) => {
  const clock = testClock(new Date('2026-11-21T15:00:00Z'));
  let app: FastifyInstance;
  let fx: CartFixture;
  const sessionsUrl = () => `/api/events/${fx.eventId}/sessions?_seller=${fx.slug}&sold_out=T`;
  const available = (body: any) => body.event_session._data.find((s: any) => s.id === fx.sessionId).availableCapacity;

  beforeAll(async () => {
    fx = await insertCartFixture(ctx().db, { now: clock.now() });
    const deps = testDeps(ctx(), clock.now);
    app = await buildTestApp({ ...deps, config: { ...deps.config, readCacheMs: 1000 } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers a repeated read from memory, and a reservation shows in the very next read', async () => {
    const first = await app.inject({ url: sessionsUrl() });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-read-cache']).toBeUndefined();
    const again = await app.inject({ url: sessionsUrl() });
    expect(again.headers['x-read-cache']).toBe('hit');
    expect(again.json()).toEqual(first.json());

    const b = new Browser(app);
    const reserved = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [1, 2].map(() => ({ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId })),
    });
    expect(reserved.status).toBe(200);
    const after = await app.inject({ url: sessionsUrl() });
    expect(after.headers['x-read-cache']).toBeUndefined();
    expect(available(after.json())).toBe(available(first.json()) - 2);
  });

  it('expires an answer after a second even without writes, and never caches what depends on who asks', async () => {
    await app.inject({ url: sessionsUrl() });
    expect((await app.inject({ url: sessionsUrl() })).headers['x-read-cache']).toBe('hit');
    clock.advance(1.001);
    expect((await app.inject({ url: sessionsUrl() })).headers['x-read-cache']).toBeUndefined();

    const b = new Browser(app);
    await b.post(`/api/cart/modify?_seller=${fx.slug}`, { add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }] });
    for (let i = 0; i < 2; i++) {
      const cart = await b.get(`/api/cart?_seller=${fx.slug}`);
      expect(cart.res.headers['x-read-cache']).toBeUndefined();
    }
  });

  it('does not keep refusals or answers for another query string', async () => {
    const missing = `/api/events/00000000-0000-4000-8000-000000000000/sessions?_seller=${fx.slug}`;
    for (let i = 0; i < 2; i++) expect((await app.inject({ url: missing })).headers['x-read-cache']).toBeUndefined();
    await app.inject({ url: sessionsUrl() });
    expect((await app.inject({ url: `${sessionsUrl()}&limit=1` })).headers['x-read-cache']).toBeUndefined();
  });
});

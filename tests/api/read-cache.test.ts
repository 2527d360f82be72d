import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';

const compressions = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../server/http/compression', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/http/compression')>();
  return { ...real, compress: (...args: Parameters<typeof real.compress>) => (compressions.count++, real.compress(...args)) };
});

/**
 * Public catalogue reads answered from memory for a second, never to a visitor after their own write, and compressed
 * once per kept answer (server/http/read-cache.ts).
 */
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

  it('shows a reservation at once to the address that made it, while the others keep the kept answer for its second', async () => {
    clock.advance(1.001);
    const reader = new Browser(app, '10.0.0.2');
    const buyer = new Browser(app, '10.0.0.1');
    const before = available((await reader.get(sessionsUrl())).body);
    expect((await reader.get(sessionsUrl())).res.headers['x-read-cache']).toBe('hit');

    expect(
      (
        await buyer.post(`/api/cart/modify?_seller=${fx.slug}`, {
          add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
        })
      ).status,
    ).toBe(200);
    // A write no longer empties the cache for everyone: an on-sale's reservations would leave every read uncached.
    const other = await reader.get(sessionsUrl());
    expect(other.res.headers['x-read-cache']).toBe('hit');
    expect(available(other.body)).toBe(before);
    // The buyer's next read is computed after the write, and that answer serves from then on.
    const own = await buyer.get(sessionsUrl());
    expect(own.res.headers['x-read-cache']).toBeUndefined();
    expect(available(own.body)).toBe(before - 1);
    const ownAgain = await buyer.get(sessionsUrl());
    expect(ownAgain.res.headers['x-read-cache']).toBe('hit');
    expect(available(ownAgain.body)).toBe(before - 1);
    expect(available((await reader.get(sessionsUrl())).body)).toBe(before - 1);

    // A write the buyer makes while an answer is being computed: that answer is not theirs to see.
    clock.advance(1.001);
    const pending = reader.get(sessionsUrl());
    await buyer.post(`/api/cart/modify?_seller=${fx.slug}`, { add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }] });
    await pending;
    const after = await buyer.get(sessionsUrl());
    expect(after.res.headers['x-read-cache']).toBeUndefined();
    expect(available(after.body)).toBe(before - 2);
  });

  it('compresses a kept answer once per encoding, as the compression plugin does the answer it computes', async () => {
    clock.advance(1.001);
    const get = (headers: Record<string, string>) => app.inject({ url: `/api/events/${fx.eventId}/calendar?_seller=${fx.slug}`, headers });
    const miss = await get({ 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(miss.headers['x-read-cache']).toBeUndefined();
    expect(miss.headers['content-encoding']).toBe('br');
    const json = brotliDecompressSync(miss.rawPayload).toString();
    expect(json.length).toBeGreaterThan(1024);

    const before = compressions.count;
    for (let i = 0; i < 3; i++) {
      const hit = await get({ 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(hit.headers['x-read-cache']).toBe('hit');
      expect(hit.headers['content-encoding']).toBe('br');
      expect(hit.headers.vary).toBe('accept-encoding');
      expect(hit.headers['content-type']).toBe(miss.headers['content-type']);
      expect(hit.headers['cache-control']).toBe(miss.headers['cache-control']);
      expect(brotliDecompressSync(hit.rawPayload).toString()).toBe(json);
    }
    const gzipped = await get({ 'accept-encoding': 'gzip;q=1, br;q=0.5' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(json);
    expect((await get({ 'accept-encoding': 'x-gzip' })).headers['content-encoding']).toBe('gzip');
    expect(compressions.count - before).toBe(2);

    const plainAsks: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br', 'x-no-compression': '1' },
    ];
    for (const headers of plainAsks) {
      const plain = await get(headers);
      expect(plain.headers['x-read-cache']).toBe('hit');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.payload).toBe(json);
    }

    // An answer under the plugin's threshold goes as it is, kept or not.
    const small = () => app.inject({ url: sessionsUrl(), headers: { 'accept-encoding': 'br' } });
    expect((await small()).rawPayload.length).toBeLessThan(1024);
    const smallHit = await small();
    expect(smallHit.headers['x-read-cache']).toBe('hit');
    expect(smallHit.headers['content-encoding']).toBeUndefined();
    expect(compressions.count - before).toBe(2);
  });

  it('computes an expired answer once for the requests that miss together, and they all get it', async () => {
    clock.advance(1.001);
    const url = `/api/events/${fx.eventId}/calendar?_seller=${fx.slug}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => app.inject({ url })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    expect(answers.filter((a) => a.headers['x-read-cache'] !== 'hit')).toHaveLength(1);
    for (const a of answers) expect(a.payload).toBe(answers[0].payload);
    // An answer that is not kept (a refusal) lets the others go on their own.
    const missing = `/api/events/00000000-0000-4000-8000-000000000000/calendar?_seller=${fx.slug}`;
    const refused = await Promise.all(Array.from({ length: 3 }, () => app.inject({ url: missing })));
    expect(refused.map((a) => [a.statusCode, a.headers['x-read-cache']])).toEqual(Array(3).fill([404, undefined]));
  });
});

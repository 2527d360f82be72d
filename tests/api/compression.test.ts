import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { buildTestApp, testDeps } from '../helpers/app';
import { loadDemo } from '../helpers/auth';

/** API answers are compressed for browsers that accept it; built assets go out precompressed. */
describeEachDatabase('compression', (ctx) => {
  let app: FastifyInstance;
  let eventId: string;
  const staticDir = mkdtempSync(path.join(tmpdir(), 'static-'));
  const bundle = `console.log(${JSON.stringify('storefront '.repeat(300))});`;
  beforeAll(async () => {
    await loadDemo(ctx().db, new Date());
    mkdirSync(path.join(staticDir, 'assets'));
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(path.join(staticDir, 'assets', 'app.js'), bundle);
    writeFileSync(path.join(staticDir, 'assets', 'app.js.br'), brotliCompressSync(bundle));
    // The build's manifest (vite.config.ts), which the bundle budget reads from disk: not the public's.
    mkdirSync(path.join(staticDir, '.vite'));
    writeFileSync(path.join(staticDir, '.vite', 'manifest.json'), '{"src/main.tsx":{"file":"assets/app.js"}}');
    const deps = testDeps(ctx());
    app = await buildTestApp({ ...deps, config: { ...deps.config, staticDir } });
    const events = (await app.inject({ url: '/api/events/available?_seller=demo' })).json();
    eventId = JSON.stringify(events).match(/"id":"([0-9a-f-]{36})"/)![1];
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a large API answer is sent with brotli or gzip as accepted, and decodes to the same JSON', async () => {
    const url = `/api/events/${eventId}/calendar?_seller=demo&_format=extended`;
    const plain = await app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const br = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 3);
    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('a built asset is sent from its .br file, long-cached, and plain to a client that does not accept brotli', async () => {
    const br = await app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bundle);
    const plain = await app.inject({ url: '/assets/app.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bundle);
  });

  it('a chunk that is not there (an old page after a deploy) is a plain 404, never the page parsed as code', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url: '/assets/EventsScreen-old.js' });
      expect(res.statusCode, method).toBe(404);
      expect(res.headers['content-type'], method).toContain('text/plain');
    }
    expect((await app.inject({ url: '/assets/EventsScreen-old.js' })).body).toBe('Not found');
    expect((await app.inject({ method: 'HEAD', url: '/assets/app.js' })).statusCode).toBe(200);
    // The page itself is the storefront's route, not a file.
    expect((await app.inject({ url: '/index.html' })).headers['content-type']).toContain('text/html');
  });

  it("the build's manifest in .vite/ is not served", async () => {
    const res = await app.inject({ url: '/.vite/manifest.json' });
    expect(res.body).not.toContain('src/main.tsx');
    expect(res.headers['content-type'] ?? '').not.toContain('json');
  });
});

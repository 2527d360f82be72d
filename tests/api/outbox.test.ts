import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { buildTestApp, testDeps } from '../helpers/app';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';

describeEachDatabase('GET /_outbox', (ctx) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await ctx()
      .db.insertInto('mail_outbox')
      .values({
        kind: 'order',
        to_address: 'ada@example.com',
        subject: 'Your tickets <b>now</b>',
        text_body: 'Order 7\n<script>x()</script>',
        meta: '{}',
      })
      .execute();
    const deps = testDeps(ctx());
    app = await buildTestApp({ ...deps, config: { ...deps.config, outboxPage: true } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists kept mail with its text escaped, when a developer asked for it (OUTBOX_PAGE=1)', async () => {
    const res = await app.inject({ method: 'GET', url: '/_outbox' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('ada@example.com');
    expect(res.body).toContain('Your tickets &lt;b&gt;now&lt;/b&gt;');
    expect(res.body).toContain('&lt;script&gt;x()&lt;/script&gt;');
    expect(res.body).not.toContain('<script>x()');
  });

  it('answers only clients on this machine, whatever a forwarded header says', async () => {
    for (const remoteAddress of ['::1', '::ffff:127.0.0.1', '127.0.0.2']) {
      expect((await app.inject({ method: 'GET', url: '/_outbox', remoteAddress })).statusCode).toBe(200);
    }
    const stranger = await app.inject({
      method: 'GET',
      url: '/_outbox',
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' },
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.body).not.toContain('ada@example.com');
  });

  it('is not served on a default start: the page is opt-in', async () => {
    // A default `npm start` sets no NODE_ENV: before, the outbox was served there to anyone (account takeover).
    const config = readConfig({});
    expect(config.outboxPage).toBe(false);
    const deps = testDeps(ctx());
    const plain = await buildApp({ ...deps, config: { ...deps.config, outboxPage: config.outboxPage } });
    const res = await plain.inject({ method: 'GET', url: '/_outbox' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('ada@example.com');
    await plain.close();
  });
});

describe('OUTBOX_PAGE setting', () => {
  it('is on only for OUTBOX_PAGE=1', () => {
    expect(readConfig({ OUTBOX_PAGE: '1' }).outboxPage).toBe(true);
    expect(readConfig({ OUTBOX_PAGE: 'true' }).outboxPage).toBe(false);
    expect(readConfig({ OUTBOX_PAGE: '0' }).outboxPage).toBe(false);
  });
  it('is refused in production, at start', () => {
    expect(() => readConfig({ NODE_ENV: 'production', OUTBOX_PAGE: '1' })).toThrow(/OUTBOX_PAGE=1 is refused/);
    expect(readConfig({ NODE_ENV: 'production' }).outboxPage).toBe(false);
  });
});

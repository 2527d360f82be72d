import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { buildTestApp, testDeps } from '../helpers/app';
import { buildApp } from '../../server/app';

describeEachDatabase('GET /_outbox', (ctx) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await ctx().db.insertInto('mail_outbox').values({
      kind: 'order', to_address: 'ada@example.com', subject: 'Your tickets <b>now</b>', text_body: 'Order 7\n<script>x()</script>', meta: '{}',
    }).execute();
    app = await buildTestApp(testDeps(ctx()));
  });
  afterAll(async () => { await app?.close(); });

  it('lists kept mail with its text escaped', async () => {
    const res = await app.inject({ method: 'GET', url: '/_outbox' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('ada@example.com');
    expect(res.body).toContain('Your tickets &lt;b&gt;now&lt;/b&gt;');
    expect(res.body).toContain('&lt;script&gt;x()&lt;/script&gt;');
    expect(res.body).not.toContain('<script>x()');
  });

  it('is not served in production', async () => {
    const deps = testDeps(ctx());
    const prod = await buildApp({ ...deps, config: { ...deps.config, production: true } });
    const res = await prod.inject({ method: 'GET', url: '/_outbox' });
    expect(res.statusCode).toBe(404);
    await prod.close();
  });
});

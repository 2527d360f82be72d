import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { testDeps } from '../helpers/app';
import { buildApp, CONTENT_SECURITY_POLICY } from '../../server/app';

/** Security headers, CSRF, and logs without personal data (DESIGN.md section 4). */
describeEachDatabase('security', (ctx) => {
  let app: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp(testDeps(ctx()), { logger: { level: 'error', stream } });
    // A route that fails the way a bug would, to see what the log and the answer carry.
    app.post('/api/_test_failure', async () => {
      throw new Error('database exploded');
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('every response carries the security headers and a CSP without inline scripts', async () => {
    for (const url of ['/api/config?_seller=demo', '/api/nope', '/storefront-config.json', '/some/page']) {
      const res = await app.inject({ url });
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
    const scripts = CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('script-src'))!;
    expect(scripts).not.toContain('unsafe-inline');
    // Forms validate with validators compiled on the server: nothing needs eval.
    expect(scripts).not.toContain('unsafe-eval');
    expect(scripts).toContain('https://js.stripe.com');
  });

  it("HSTS only over https (as a trusted proxy says: TRUST_PROXY; a client's own header does not count)", async () => {
    const deps = testDeps(ctx());
    const proxied = await buildApp({ ...deps, config: { ...deps.config, trustProxy: 1 } });
    const https = await proxied.inject({ url: '/api/config', headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toContain('max-age=');
    expect((await proxied.inject({ url: '/api/config' })).headers['strict-transport-security']).toBeUndefined();
    await proxied.close();
    const spoofed = await app.inject({ url: '/api/config', headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers['strict-transport-security']).toBeUndefined();
  });

  it('refuses writes without the X-Ticketing-App header (CSRF), cookie or not', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/cart/modify', payload: {}, headers: { cookie: 'storefront_cart_owner=00' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()._data[0]._code).toBe('csrf_header_missing');
  });

  it('a failure answers 500 without a stack, and its log line holds no personal data', async () => {
    lines.length = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/api/_test_failure',
      headers: { 'x-ticketing-app': 'ecomm' },
      payload: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        password: 'Secret-Pass-1',
        additional_info: { zip: '10024' },
        add: [{ admit_name: 'Grace Hopper', admit_email: 'grace@example.com' }],
      },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()._data[0]._code).toBe('internal_error');
    expect(res.body).not.toContain('database exploded');
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    const log = lines.join('\n');
    expect(log).toContain('database exploded');
    expect(log).toContain('REDACTED');
    for (const secret of ['Ada', 'Lovelace', 'ada@example.com', 'Secret-Pass-1', '10024', 'Grace Hopper', 'grace@example.com']) {
      expect(log, secret).not.toContain(secret);
    }
  });
});

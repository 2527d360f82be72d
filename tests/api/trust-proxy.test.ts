import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { ECOMM, testClock, testDeps } from '../helpers/app';
import { loadDemo } from '../helpers/auth';
import { buildApp } from '../../server/app';
import { readConfig, readTrustProxy } from '../../server/config';
import { LIMITS } from '../../server/services/auth/rate-limit';

/** Issue 20, finding 2: the client chose its own address (X-Forwarded-For) and scheme (X-Forwarded-Proto). */
describe('TRUST_PROXY', () => {
  it('trusts nobody unless told: a hop count or a list of proxy addresses', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readTrustProxy('')).toBe(false);
    expect(readTrustProxy('1')).toBe(1);
    expect(readTrustProxy('10.0.0.0/8, 127.0.0.1')).toBe('10.0.0.0/8, 127.0.0.1');
    expect(() => readTrustProxy('true')).toThrow(/hop count/);
  });
});

describeEachDatabase('client address and scheme behind TRUST_PROXY', (ctx) => {
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const apps: FastifyInstance[] = [];
  const build = async (trustProxy: false | number | string) => {
    const deps = testDeps(ctx(), clock.now);
    const app = await buildApp({ ...deps, config: { ...deps.config, trustProxy } });
    await app.ready();
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    await loadDemo(ctx().db, clock.now());
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  const ownerCookie = async (app: FastifyInstance, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'POST', url: '/api/cart/modify?_seller=demo', payload: {}, headers: { ...ECOMM, ...headers } });
    expect(res.statusCode).toBe(200);
    return String(res.headers['set-cookie']);
  };

  it("a client's X-Forwarded-Proto does not make cookies Secure by default; a trusted proxy's does", async () => {
    const plain = await build(false);
    expect(await ownerCookie(plain, { 'x-forwarded-proto': 'https' })).not.toMatch(/Secure/);
    const proxied = await build(1);
    expect(await ownerCookie(proxied, { 'x-forwarded-proto': 'https' })).toMatch(/Secure/);
    expect(await ownerCookie(proxied, {})).not.toMatch(/Secure/);
  });

  const resetRequests = async (app: FastifyInstance, n: number, forwardedFor: (i: number) => string) => {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/password_reset/request?_seller=demo',
        remoteAddress: '10.1.2.3',
        headers: { ...ECOMM, 'x-forwarded-for': forwardedFor(i) },
        payload: { email: `proxy${i}-${Math.random()}@example.com` },
      });
      statuses.push(res.statusCode);
    }
    return statuses;
  };

  it('a client cannot escape the per-address limit by writing another X-Forwarded-For', async () => {
    clock.advance(LIMITS.reset_request_ip.windowSeconds + 1);
    const statuses = await resetRequests(await build(false), LIMITS.reset_request_ip.max + 1, (i) => `198.51.100.${i}`);
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("behind a trusted proxy, each client's own address is counted", async () => {
    clock.advance(LIMITS.reset_request_ip.windowSeconds + 1);
    const statuses = await resetRequests(await build('10.1.2.3'), LIMITS.reset_request_ip.max + 1, (i) => `203.0.113.${i}`);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });
});

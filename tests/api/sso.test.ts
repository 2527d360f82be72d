import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testDeps } from '../helpers/app';
import { buildAuthApp, loadDemo, setAuth } from '../helpers/auth';
import { sameSitePath } from '../../server/routes/auth';

describeEachDatabase('single sign-on start', (ctx) => {
  let app: FastifyInstance;
  let sellerId: string;
  beforeAll(async () => {
    sellerId = await loadDemo(ctx().db, new Date());
    app = await buildAuthApp(testDeps(ctx()));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('redirects to the identity provider with a return address on this storefront only', async () => {
    await setAuth(ctx().db, sellerId, { method: 'sso', external_login_url: 'https://idp.example/authorize?client=museum' });
    const res = await app.inject({ url: '/api/sso/start?_seller=demo&redirect=http://localhost:3000/checkout&cart_id=abc' });
    expect(res.statusCode).toBe(302);
    const to = new URL(res.headers.location as string);
    expect(to.origin + to.pathname).toBe('https://idp.example/authorize');
    expect(to.searchParams.get('client')).toBe('museum');
    expect(to.searchParams.get('return_to')).toBe('http://localhost:3000/checkout');
    expect(to.searchParams.get('cart_id')).toBe('abc');
    const evil = await app.inject({ url: '/api/sso/start?_seller=demo&redirect=https://evil.example/steal' });
    expect(new URL(evil.headers.location as string).searchParams.get('return_to')).toBe('http://localhost:3000/');
  });

  it('refuses when the seller does not use sso, or has no identity provider address', async () => {
    await setAuth(ctx().db, sellerId, { method: 'sso' });
    const missing = await app.inject({ url: '/api/sso/start?_seller=demo' });
    expect([missing.statusCode, missing.json()._data[0]._code]).toEqual([400, 'external_login_url_missing']);
    expect(missing.json()._data[0]._description).toBe('External login URL missing');
    await setAuth(ctx().db, sellerId, { method: 'password' });
    const other = await app.inject({ url: '/api/sso/start?_seller=demo' });
    expect([other.statusCode, other.json()._data[0]._code]).toEqual([400, 'unknown_auth_method']);
  });
});

it('sameSitePath keeps paths and same-origin URLs only', () => {
  expect(sameSitePath('/my/orders?x=1', 'http://localhost:3000')).toBe('/my/orders?x=1');
  expect(sameSitePath('//evil.example/x', 'http://localhost:3000')).toBe('/');
  expect(sameSitePath('https://evil.example/x', 'http://localhost:3000')).toBe('/');
  expect(sameSitePath('/\\evil.example', 'http://localhost:3000')).toBe('/');
  expect(sameSitePath(undefined, 'http://localhost:3000')).toBe('/');
});

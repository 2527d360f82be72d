import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort } from '../helpers/free-port';
import { CLIENT_ID, CLIENT_SECRET, startTestIdp, type TestIdp } from '../helpers/oidc-idp';
import { startOwnServer } from './own-server';

/**
 * Single sign-on in real Chromium (issue 18): the demo seller, copied with `auth.method: 'sso'` and an OpenID Connect
 * provider this spec starts (oidc-provider on 127.0.0.1, tests/helpers/oidc-idp.ts), served by a server of its own
 * whose client secret is in its environment (OIDC_CLIENT_SECRET_DEMO), as a real deployment's would be. The shopper
 * clicks 'Log in', continues to the provider, signs in on the provider's page and comes back logged in; cancelling at
 * the provider comes back to 'SFEC Authentication failed'.
 */
let server: { baseURL: string; stop: () => void } | null = null;
let idp: TestIdp | null = null;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  idp = await startTestIdp(baseURL, [
    { sub: 'grace', email: 'grace.hopper@example.com', email_verified: true, given_name: 'Grace', family_name: 'Hopper' },
  ]);
  const seller = mkdtempSync(path.join(os.tmpdir(), 'storefront-e2e-sso-seller-'));
  cpSync(path.resolve('sellers/demo'), seller, { recursive: true });
  const configFile = path.join(seller, 'config.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8'));
  config.auth = { ...config.auth, method: 'sso', oidc: { issuer: idp.issuer, client_id: CLIENT_ID } };
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  server = await startOwnServer('sso', { DEMO_SELLER_DIR: seller, OIDC_CLIENT_SECRET_DEMO: CLIENT_SECRET }, port);
});
test.afterAll(async () => {
  server?.stop();
  await idp?.close();
});

/** From the events page: the header's 'Log in', then on to the provider's sign-in page. */
async function toProvider(page: Page) {
  await page.goto(`${server!.baseURL}/events`);
  await page.getByRole('banner').getByRole('button', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Log in' });
  await dialog.getByRole('link', { name: 'Continue to log in' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the test identity provider' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(idp!.issuer);
}

test('logs in at the identity provider and comes back logged in, where the login started', async ({ page }) => {
  await toProvider(page);
  await page.getByLabel('Email').fill('grace.hopper@example.com');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Hi, Grace' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/events');
  const me = await page.request.get(`${server!.baseURL}/api/my/user`);
  expect((await me.json()).user._data[0].email).toBe('grace.hopper@example.com');

  // Logging out ends the provider's session too (RP-initiated logout): the provider asks, then sends the visitor home.
  await page.getByRole('banner').getByRole('button', { name: 'Hi, Grace' }).click();
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL((url) => url.origin === idp!.issuer);
  await page.getByRole('button', { name: /sign me out/i }).click();
  await page.waitForURL((url) => url.origin === server!.baseURL);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toBeVisible();
  // The provider's session is over: logging in again asks for the account at the provider.
  await toProvider(page);
  await expect(page.getByLabel('Email')).toBeVisible();
});

test("cancelling at the provider comes back to 'SFEC Authentication failed'", async ({ page }) => {
  await toProvider(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('alert')).toHaveText('SFEC Authentication failed');
  const url = new URL(page.url());
  expect([url.pathname, url.searchParams.get('auth_error')]).toEqual(['/login/callback', 'sso_provider_error']);
  await expect(page.getByRole('link', { name: 'Continue to log in' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toBeVisible();
});

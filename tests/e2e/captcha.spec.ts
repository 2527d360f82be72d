import { expect, test } from '@playwright/test';
import { checkBothSizes, fillCheckout, firstSessionTomorrow, reserveThroughApi } from './helpers';
import { CAPTCHA_SELLER } from './setup-sellers-constants';

/**
 * A guest's checkout on a seller that asks for a captcha (issue 14; spec section 2), in real Chromium against the real
 * server: the notice shows, paying solves the server's ALTCHA challenge in a Web Worker (the widget's own, from this
 * origin, under the page's CSP) and the order goes through with the token. The server then refuses that same token
 * on another cart (one use each) and a checkout without one, so the browser's token is what let it pass.
 */
test('a guest pays with the captcha solved in the page; the server refuses its token again and no token at all', async ({ page }) => {
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  const csp: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
  });
  const session = await firstSessionTomorrow(page.request, CAPTCHA_SELLER);
  await page.goto(`/${CAPTCHA_SELLER}/events`);
  const zip = { [session.groups.Adult]: { zip_code: '10001' } };
  const cartId = await reserveThroughApi(page, CAPTCHA_SELLER, session.sessionId, [session.types.Adult], zip);
  await page.goto(`/${CAPTCHA_SELLER}/checkout/${cartId}`);
  await expect(page.getByText(/This checkout is protected against automated purchases/)).toBeVisible();
  await checkBothSizes(page, 'captcha-checkout');

  await fillCheckout(page, '4242 4242 4242 4242');
  // The invisible widget takes no stop in the keyboard's path: from the terms link the next stop is the pay button.
  await page.getByRole('button', { name: 'Read the terms and conditions' }).focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: /^Pay/ })).toBeFocused();
  const checkout = page.waitForRequest((r) => r.url().includes(`/cart/${cartId}/guest_checkout`));
  await page.getByRole('button', { name: /^Pay/ }).click();
  const sent = (await checkout).postDataJSON() as { captcha?: { provider: string; token: string } };
  expect(sent.captcha?.provider).toBe('altcha');
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible({ timeout: 30_000 });
  expect(workers.some((url) => url.startsWith(new URL(page.url()).origin))).toBe(true);
  expect(csp).toEqual([]);

  // The same token on another cart of this browser: spent. No token: required.
  const again = await reserveThroughApi(page, CAPTCHA_SELLER, session.sessionId, [session.types.Adult], zip);
  const cart = await (await page.request.get(`/api/cart/${again}?_seller=${CAPTCHA_SELLER}`)).json();
  const pay = (extra: Record<string, unknown>) =>
    page.request.post(`/api/cart/${again}/guest_checkout?_seller=${CAPTCHA_SELLER}`, {
      headers: { 'X-Ticketing-App': 'ecomm' },
      data: { ...sent, amount: cart.cart._data[0].cart_fees.grand_totals.total_outstanding, ...extra },
    });
  const reused = await pay({});
  expect(reused.status()).toBe(409);
  expect((await reused.json())._data[0]._code).toBe('captcha_reused');
  const missing = await pay({ captcha: undefined });
  expect(missing.status()).toBe(400);
  expect((await missing.json())._data[0]._code).toBe('captcha_required');
});

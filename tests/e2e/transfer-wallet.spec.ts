import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { TALK, checkBothSizes, fillPurchaser, freeTalkSession } from './helpers';
import { readPkpass, readSaveLink } from '../helpers/wallet-checks';

/** The run's wallet credentials (tests/e2e/setup-sellers.ts made them; the main server reads them by WALLET_CONFIG). */
const walletFile = (name: string) => readFileSync(path.join(process.env.E2E_WALLET_DIR!, name), 'utf8');

/** The cart id the storefront keeps for the seller (localStorage 'storefront.cart.{sellerId}'). */
const storedCart = (page: Page) =>
  page.evaluate(() => Object.entries(localStorage).find(([key]) => /^storefront\.cart\.[0-9a-f-]{36}$/.test(key))?.[1] ?? null);

/** A free place of the demo's gallery talk, straight to the checkout (spec section 2 preselection); a session of its own,
 *  apart from the one after-purchase.spec.ts counts the places of. */
async function talkAtCheckout(page: Page) {
  const { eventId, sessionId } = await freeTalkSession(page.request, 3);
  await page.goto(`/events/${eventId}?session=${sessionId}&quantity=${encodeURIComponent('Free place:1')}&reserve=1`);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
  await expect(page.getByText(TALK).first()).toBeVisible();
}

async function completeOrder(page: Page, email: string) {
  await fillPurchaser(page, { first: 'Tess', last: 'Transfer', email });
  await page.getByRole('button', { name: 'Complete order' }).click();
  await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
}

test.describe('after the purchase: transfer-cart and wallet passes (issue 17)', () => {
  test('a transfer-cart link opens the cart in a new browser context, which completes it; the first browser gives it up', async ({
    page,
    context,
    browser,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await talkAtCheckout(page);
    const cartId = await storedCart(page);
    expect(cartId).toMatch(/^[0-9a-f-]{36}$/);

    // The owner makes the link and copies it (keyboard: the button, then 'Copy link').
    const make = page.getByRole('button', { name: 'Continue on another device' });
    await make.focus();
    await page.keyboard.press('Enter');
    const field = page.getByRole('textbox', { name: 'Link to this cart' });
    await expect(field).toBeVisible();
    const link = await field.inputValue();
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/transfer-cart/${cartId}#token=[A-Za-z0-9_-]{43}$`));
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Link copied. Open it on your other device.' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await checkBothSizes(page, 'transfer-checkout-link');

    // Another browser (no cookie of this one) opens the link: the cart is its own, at the checkout.
    const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await phoneContext.newPage();
    await phone.goto(link.replace(/^http:\/\/[^/]+/, ''));
    await expect(phone).toHaveURL(/\/checkout$/);
    await expect(phone.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
    await expect(phone.getByText(TALK).first()).toBeVisible();
    expect(await storedCart(phone)).toBe(cartId);
    await completeOrder(phone, 'tess-transfer@example.com');

    // The link worked once: the first browser no longer has the cart, and its link opens nothing for anyone.
    await page.goto('/checkout');
    await expect(page).not.toHaveURL(/\/checkout/);
    await page.goto(link.replace(/^http:\/\/[^/]+/, ''));
    await expect(page.getByRole('alert')).toHaveText('403 Access denied to cart');
    await expect(page).toHaveURL(new RegExp(`/transfer-cart/${cartId}$`));
    await checkBothSizes(page, 'transfer-denied');

    // A guessed cart id hands nothing over; an unknown one is not found; the new owner opening it again goes to its order.
    const stranger = await (await browser.newContext()).newPage();
    await stranger.goto(`/transfer-cart/${cartId}`);
    await expect(stranger.getByRole('alert')).toHaveText('403 Access denied to cart');
    await stranger.goto('/transfer-cart/00000000-0000-4000-8000-000000000000');
    await expect(stranger.getByRole('alert')).toHaveText('404 Cart not found');
    await phone.goto(`/transfer-cart/${cartId}`);
    await expect(phone).toHaveURL(/\/checkout\/complete\?orderIds=/);
    await stranger.context().close();
    await phoneContext.close();
  });

  test('the completion page shows the wallet links when the demo has test credentials configured', async ({ page }) => {
    await talkAtCheckout(page);
    await completeOrder(page, 'wallet-links@example.com');
    const apple = page.getByRole('link', { name: /^Add to Apple Wallet/ });
    const google = page.getByRole('link', { name: /^Save to Google Wallet/ });
    await expect(apple).toHaveCount(1);
    await expect(google).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'View tickets' })).toBeVisible();
    await expect.poll(() => page.locator('.order-summary__qr').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await checkBothSizes(page, 'completion-wallet');

    // The links are the real passes: a signed .pkpass, and a Google save link whose JWT the service account signed.
    const pkpass = await page.request.get((await apple.getAttribute('href'))!);
    expect(pkpass.status()).toBe(200);
    expect(pkpass.headers()['content-type']).toBe('application/vnd.apple.pkpass');
    const pass = readPkpass(await pkpass.body(), walletFile('apple/signer-cert.pem'));
    expect([pass.manifestOk, pass.signatureOk]).toEqual([true, true]);
    expect(pass.passJson.organizationName).toBe('Demo Museum of Art & Science');
    const save = await page.request.get((await google.getAttribute('href'))!, { maxRedirects: 0 });
    expect(save.status()).toBe(302);
    const account = JSON.parse(walletFile('google/service-account.json')) as { private_key: string; client_email: string };
    const publicKey = createPublicKey(account.private_key).export({ type: 'spki', format: 'pem' }) as string;
    const jwt = readSaveLink(save.headers().location, publicKey);
    expect(jwt.signatureOk).toBe(true);
    expect(jwt.claims).toMatchObject({ iss: account.client_email, aud: 'google', typ: 'savetowallet' });
    expect(jwt.claims.payload.eventTicketObjects[0].barcode.value).toBe(pass.passJson.barcodes[0].message);
  });
});

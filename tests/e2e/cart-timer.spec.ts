import { expect, test, type Page } from '@playwright/test';
import { firstSessionTomorrow, reserveThroughApi } from './helpers';
import { E2E_HOLD_SECONDS, E2E_SELLER } from './setup-sellers-constants';

/**
 * The cart hold runs out: the 'e2e' seller (tests/e2e/setup-sellers.ts) holds carts for
 * E2E_HOLD_SECONDS, so the timer, the extend offer at 60 s and the expiry all happen within the test.
 */
async function openHeldCart(page: Page) {
  const session = await firstSessionTomorrow(page.request, E2E_SELLER);
  await page.goto(`/${E2E_SELLER}/events`);
  const cartId = await reserveThroughApi(page, E2E_SELLER, session.sessionId, [session.types.Adult], {
    [session.groups.Adult]: { zip_code: '10001' },
  });
  await page.goto(`/${E2E_SELLER}/checkout/${cartId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
  return cartId;
}

test.describe('cart expiry timer', () => {
  test('counts down, offers one extension, and times the cart out', async ({ page }) => {
    // The page's clock, not the wall's: the hold's last seconds pass at once instead of in real time (the server side
    // of a hold's real length is clock.spec.ts's 'a hold lasts its real length').
    await page.clock.install();
    await openHeldCart(page);
    const timer = page.getByRole('timer').first();
    await expect(timer).toHaveText(/Your tickets are held for 0:[0-5]\d/);
    await expect(timer).toHaveClass(/expiry-timer--(error|critical)/);

    // Under 60 s the extension is offered; Dismiss records the decline and it does not come back.
    const offer = page.getByRole('dialog', { name: 'Need more time?' });
    await expect(offer).toBeVisible();
    await offer.getByRole('button', { name: 'Dismiss' }).click();
    await expect(offer).toBeHidden();

    const expired = page.getByRole('dialog', { name: 'Cart timed out' });
    await page.clock.fastForward(E2E_HOLD_SECONDS * 1000);
    await expect(expired).toBeVisible();
    await expect(expired).toContainText('Unfortunately your cart has timed out.');
    await expired.getByRole('button', { name: 'Start over' }).click();
    await expect(expired).toBeHidden();
    await expect(page).not.toHaveURL(/checkout/);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('storefront.cart.')))).toEqual([]);
  });

  test('the one 2-minute extension adds time and is not offered again', async ({ page }) => {
    const cartId = await openHeldCart(page);
    const offer = page.getByRole('dialog', { name: 'Need more time?' });
    await offer.getByRole('button', { name: 'Add 2 minutes' }).click();
    await expect(offer).toBeHidden();
    await expect(page.getByRole('timer').first()).toHaveText(/held for 2:[0-5]\d/);
    const cart = await (await page.request.get(`/api/cart/${cartId}?_seller=${E2E_SELLER}`)).json();
    expect(cart.cart._data[0].extended_at).not.toBeNull();
    expect(cart.cart._data[0].expires_in).toBeGreaterThan(120);
  });
});

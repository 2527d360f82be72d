import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, fillCheckout, firstSessionTomorrow, reserveThroughApi } from './helpers';
import { BLOCKED_CODE, BLOCKED_SELLER } from './setup-sellers-constants';

const SHOTS = '/tmp/shots';

/** Issue 13: a checkout rule (block reason code_required) holds the cart until its code is applied, in the real server. */
test('a held cart asks for its code: refusals in the spec words, then the code lifts it and the order goes through', async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  const session = await firstSessionTomorrow(page.request, BLOCKED_SELLER);
  await page.goto(`/${BLOCKED_SELLER}/events`);
  const cartId = await reserveThroughApi(page, BLOCKED_SELLER, session.sessionId, [session.types.Adult], {
    [session.groups.Adult]: { zip_code: '10001' },
  });
  await page.goto(`/${BLOCKED_SELLER}/checkout/${cartId}`);
  const form = page.getByRole('region', { name: 'A code is needed' });
  await expect(form.getByText('Press preview: enter the code you were given to complete your order.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  const field = form.getByRole('textbox', { name: 'Code', exact: true });

  await field.fill(' x ');
  await field.press('Enter');
  await expect(form.getByRole('alert')).toHaveText('Please use at least 2 characters.');
  await expect(field).toBeFocused();
  await field.fill('WRONG99');
  await form.getByRole('button', { name: 'Apply code' }).click();
  await expect(form.getByRole('alert')).toHaveText('"WRONG99" is not a valid promo code. Please try another one.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeFocused();
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/blocked-cart-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/blocked-cart-mobile.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  await field.fill(BLOCKED_CODE.toLowerCase());
  await field.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `Code ${BLOCKED_CODE.toLowerCase()} accepted.` })).toBeVisible();
  await fillCheckout(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
});

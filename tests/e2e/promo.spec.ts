import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, fillCheckout, firstSessionTomorrow, reserveThroughUi } from './helpers';

const SHOTS = '/tmp/shots';

/** Issue 13: the promo code field at checkout, against the real server and the demo's codes. */
test.describe('promo codes at checkout', () => {
  test('a bad code shows its message; SPRING10 discounts admission; the confirmation shows the discounted total', async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 2, children: 1 });
    const summary = page.getByRole('region', { name: 'Order summary' });
    const totals = summary.locator('.checkout-totals');
    const due = totals.locator('.checkout-totals__due dd');
    const before = await due.textContent();
    await expect(totals.getByText('Discount')).toHaveCount(0);

    const field = summary.getByRole('textbox', { name: 'Promo code' });
    // Too short: refused here, with the field marked and the message tied to it.
    await field.fill(' x ');
    await field.press('Enter');
    await expect(summary.getByRole('alert')).toHaveText('Please use at least 2 characters.');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toBeFocused();
    // Unknown: the server's code_not_found, in the spec's words.
    await field.fill('NOPE2026');
    await summary.getByRole('button', { name: 'Apply' }).click();
    await expect(summary.getByRole('alert')).toHaveText('"NOPE2026" is not a valid promo code.');
    await expect(field).toBeFocused();
    await expect(due).toHaveText(before!);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/promo-refused-desktop.png`, fullPage: true });

    // SPRING10 by keyboard: 10 % off the admission tickets.
    await field.fill(' spring10 ');
    await field.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Promo code SPRING10 applied' })).toHaveCount(1);
    const applied = summary.getByRole('list', { name: 'Applied promo codes' });
    await expect(applied.getByText('SPRING10')).toBeVisible();
    await expect(applied.getByText('Spring Savings: 10% off admission')).toBeVisible();
    await expect(totals.getByText('Discount')).toBeVisible();
    const discount = (await totals.locator('div', { hasText: 'Discount' }).locator('dd').textContent())!;
    expect(discount).toMatch(/^−\$\d+\.\d\d$/);
    await expect(due).not.toHaveText(before!);
    const after = (await due.textContent())!;
    const cents = (s: string) => Math.round(Number(s.replace(/[^\d.]/g, '')) * 100);
    expect(cents(before!) - cents(after)).toBe(cents(discount));
    await expect(field).toHaveValue('');
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/promo-applied-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/promo-applied-mobile.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Applying it again: duplicate_code's message.
    await field.fill('SPRING10');
    await field.press('Enter');
    await expect(summary.getByRole('alert')).toHaveText('"SPRING10" has already been applied.');

    await fillCheckout(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
    await expect(page.getByText(`Promo code savings ${discount.replace('−', '')}`)).toBeVisible();
    await expect(page.getByText(`Total paid ${after}`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/promo-confirmation-desktop.png`, fullPage: true });
  });

  test('a code can be taken off again with the keyboard, and the total comes back', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 1, children: 0 });
    const summary = page.getByRole('region', { name: 'Order summary' });
    const due = summary.locator('.checkout-totals__due dd');
    const before = (await due.textContent())!;
    const field = summary.getByRole('textbox', { name: 'Promo code' });
    await field.fill('SPRING10');
    await field.press('Enter');
    await expect(due).not.toHaveText(before);
    const remove = summary.getByRole('button', { name: 'Remove promo code SPRING10' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Promo code SPRING10 removed.' })).toHaveCount(1);
    await expect(due).toHaveText(before);
    await expect(remove).toHaveCount(0);
    await expect(field).toBeFocused();
  });

  test("the cart's promo code dialog on the events page applies SPRING10 and the cart's total follows", async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 2, children: 0 });
    await page.goto('/events');
    const cart = page.getByRole('region', { name: 'Your cart' });
    const total = cart.locator('.cart__total strong');
    await expect(total).toHaveText('$51.00');
    await cart.getByRole('button', { name: 'Have a promo code?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Promo code' });
    await dialog.getByRole('textbox', { name: 'Promo code' }).fill('SPRING10');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(dialog.getByRole('list', { name: 'Applied promo codes' }).getByText('SPRING10')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/promo-cart-dialog.png` });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(total).toHaveText('$46.20');
  });

  test('SPRING10 from a promo link is on the cart at checkout', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    // The visitor lands from the link and buys on that page (a second visit without the link raced the first
    // page's start: the code was not yet kept when it was left).
    await reserveThroughUi(page, session, { adults: 1, children: 0 }, `/events/${session.eventId}?code=SPRING10`);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByRole('list', { name: 'Applied promo codes' }).getByText('SPRING10')).toBeVisible();
    await expect(summary.locator('.checkout-totals').getByText('Discount')).toBeVisible();
  });

  test('FIRSTVISIT works once; the next visitor sees code_exhausted', async ({ page, browser }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 1, children: 0 });
    const field = page.getByRole('textbox', { name: 'Promo code' });
    await field.fill('FIRSTVISIT');
    await field.press('Enter');
    await expect(page.getByRole('list', { name: 'Applied promo codes' }).getByText('FIRSTVISIT')).toBeVisible();
    await fillCheckout(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();

    const other = await browser.newPage();
    await reserveThroughUi(other, session, { adults: 1, children: 0 });
    const otherField = other.getByRole('textbox', { name: 'Promo code' });
    await otherField.fill('firstvisit');
    await otherField.press('Enter');
    // The checkout's message region is an (empty) alert too: the promo field's own error is the one meant.
    await expect(other.getByRole('alert').filter({ hasText: 'promo code' })).toHaveText(
      'Sorry, the promo code "firstvisit" has been used up.',
    );
    await other.close();
  });
});

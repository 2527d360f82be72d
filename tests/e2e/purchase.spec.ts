import { expect, test, type Page } from '@playwright/test';
import {
  expectNoSeriousA11yViolations, fillCheckout, firstSessionTomorrow, type TomorrowSession,
} from './helpers';

/** Label parts the event detail uses (issue 3 contract): date buttons 'ddd, MMM D', session buttons 'h:mm A'. */
function labels(session: TomorrowSession, timezone = 'America/New_York') {
  const start = new Date(session.startIso);
  const day = new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'short', month: 'short', day: 'numeric' })
    .formatToParts(start);
  const part = (type: string) => day.find((p) => p.type === type)?.value ?? '';
  const time = new Intl.DateTimeFormat('en-US', { timeZone: timezone, hour: 'numeric', minute: '2-digit', hour12: true }).format(start);
  return { date: `${part('weekday')}, ${part('month')} ${part('day')}`, time };
}

/** Through the event detail UI: tomorrow, its first session, 2 Adult and 1 Child, 'Add to cart' -> /checkout. */
async function reserveTwoAdultsOneChild(page: Page, session: TomorrowSession) {
  const { date, time } = labels(session);
  await page.goto(`/events/${session.eventId}`);
  // The admission event offers dated and flexible admission first (spec section 2, date-first order).
  const dated = page.getByRole('radio', { name: /^Visit on a specific date/ });
  await expect(dated.or(page.getByRole('button', { name: new RegExp(`^${date}\\b`) })).first()).toBeVisible();
  if (await dated.count()) await dated.check();
  await page.getByRole('button', { name: new RegExp(`^${date}\\b`) }).first().click();
  await page.getByRole('radio', { name: new RegExp(`^${time}`) }).or(page.getByRole('button', { name: new RegExp(`^${time}`) }))
    .first().click();
  await page.getByRole('button', { name: 'Add one Adult', exact: true }).click();
  await page.getByRole('button', { name: 'Add one Adult', exact: true }).click();
  await page.getByRole('button', { name: 'Add one Child', exact: true }).click();
  // The demo's timed admission asks for a home ZIP code (its group survey requires it).
  await page.getByRole('textbox', { name: /ZIP or postal code/ }).fill('10001');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
}

async function expectCartSummary(page: Page) {
  const summary = page.getByRole('region', { name: 'Order summary' });
  await expect(summary.getByText('2 × Adult')).toBeVisible();
  await expect(summary.getByText('1 × Child')).toBeVisible();
  return summary;
}

async function expectConfirmationWithQr(page: Page) {
  await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  const qr = page.getByRole('img', { name: /QR code for order/ });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByRole('link', { name: 'View tickets' })).toBeVisible();
  await expect(page.locator('.order-summary__ticket')).toHaveCount(3);
}

test.describe('guest purchase', () => {
  test('buys 2 Adult and 1 Child for tomorrow\'s first session and sees the QR code', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveTwoAdultsOneChild(page, session);
    const summary = await expectCartSummary(page);
    await expect(summary.getByText('Total due')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await fillCheckout(page, '4242 4242 4242 4242');
    const pay = page.getByRole('button', { name: 'Pay now' });
    await pay.click();
    await expectConfirmationWithQr(page);
    await expectNoSeriousA11yViolations(page);

    // The cart is gone: the checkout now goes home.
    await page.goto('/checkout');
    await expect(page).not.toHaveURL(/\/checkout/);
  });

  test('a declined card shows the spec message and keeps the cart', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveTwoAdultsOneChild(page, session);
    await fillCheckout(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Your card has not been charged.' }))
      .toHaveText('Your card has not been charged. Your card was declined. Please edit your payment details and try again.');
    await expect(page).toHaveURL(/\/checkout$/);
    await expectCartSummary(page);

    // The same cart then pays with a good card.
    await page.getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
    await page.getByRole('textbox', { name: 'CVC' }).fill('123');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expectConfirmationWithQr(page);
  });

  test('shows the error summary and field errors for an invalid form', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveTwoAdultsOneChild(page, session);
    await page.getByRole('textbox', { name: 'Email Address', exact: true }).fill('ada@example.com');
    await page.getByRole('textbox', { name: 'Confirm Email Address' }).fill('ADA@example.org');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByText('There were errors found in the information you submitted. Please address the errors and re-submit the form.')).toBeVisible();
    await expect(page.getByText('Email addresses must match.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'First Name' })).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'First Name' })).toHaveAttribute('aria-invalid', 'true');
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the same purchase works on a phone', async ({ page }) => {
      const session = await firstSessionTomorrow(page.request);
      await reserveTwoAdultsOneChild(page, session);
      await expectCartSummary(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await fillCheckout(page, '4242 4242 4242 4242');
      await page.getByRole('button', { name: 'Pay now' }).click();
      await expectConfirmationWithQr(page);
    });
  });
});

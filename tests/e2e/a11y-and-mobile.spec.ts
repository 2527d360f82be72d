import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { apiEvents, expectNoSeriousA11yViolations, listedEventNames } from './helpers';

const SHOTS = '/tmp/shots';

test.describe('accessibility (axe-core: no serious or critical violations)', () => {
  test('events listing, desktop', async ({ page }) => {
    await page.goto('/events');
    await listedEventNames(page);
    await expectNoSeriousA11yViolations(page);
  });

  test('events listing, 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/events');
    await listedEventNames(page);
    await expectNoSeriousA11yViolations(page);
  });

  test('404 screen', async ({ page }) => {
    await page.goto('/definitely/not/here');
    await expect(page.getByRole('heading', { name: 'Oops!' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('event detail', async ({ page, request }) => {
    const [event] = await apiEvents(request);
    await page.goto(`/events/${event.id}`);
    await expect(page.getByRole('heading', { level: 1, name: event.name })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('mobile layout', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('shows the 80 px cart footer instead of the sidebar, and its cart dialog traps focus and closes on Escape', async ({ page }) => {
    await page.goto('/events');
    await listedEventNames(page);
    const footer = page.locator('.mobile-footer');
    await expect(footer).toBeVisible();
    expect((await footer.boundingBox())!.height).toBe(80);
    await expect(page.locator('.cart-widget')).toBeHidden();
    // Nothing is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const open = page.getByRole('button', { name: 'View cart' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Your cart' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Your cart is empty')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(open).toBeFocused();
  });
});

test.describe('screenshots', () => {
  test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

  test('events listing at 1280x800 and 390x844', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/events');
    await listedEventNames(page);
    // Bring every lazy teaser image in before the full-page shot.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/events-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(100);
    await page.screenshot({ path: `${SHOTS}/events-mobile.png`, fullPage: false });
    await page.screenshot({ path: `${SHOTS}/events-mobile-full.png`, fullPage: true });
  });
});

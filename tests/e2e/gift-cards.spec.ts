import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiEvents, expectNoSeriousA11yViolations, fillCheckout, firstSessionTomorrow, reserveThroughUi } from './helpers';

const SHOTS = '/tmp/shots';
const cents = (s: string) => Math.round(Number(s.replace(/[^\d.]/g, '')) * 100);

/** The purchaser details alone (no card: gift cards pay the order). */
async function fillPurchaser(page: Page) {
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await field('First Name').fill('Grace');
  await field('Last Name').fill('Hopper');
  await field('Email Address').fill('grace@example.com');
  await field('Confirm Email Address').fill('grace@example.com');
  const terms = page.getByLabel('I accept the terms and conditions');
  if (await terms.count()) await terms.check();
}

async function balanceOf(page: Page, number: string) {
  const res = await page.request.get(`/api/ledger/giftcard/${encodeURIComponent(number)}?_seller=demo`);
  expect(res.status()).toBe(200);
  return (await res.json()).ledger._data[0].balance as string;
}

/** Issue 13: gift cards at checkout, against the real server and the demo's cards. */
test.describe('gift cards at checkout', () => {
  test('refusals in the spec words; GC-2026-0025 pays part of the order and the card the rest', async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 1, children: 1 });
    const due = page.locator('.checkout-totals__due dd');
    const total = (await due.textContent())!;
    expect(cents(total)).toBeGreaterThan(2500);
    const section = page.getByRole('region', { name: 'Gift card' });
    const field = section.getByRole('textbox', { name: 'Gift card number' });

    await section.getByRole('button', { name: 'Apply' }).click();
    await expect(section.getByRole('alert')).toHaveText('Please enter a gift card number.');
    await expect(field).toBeFocused();
    await field.fill('NOT-A-CARD');
    await field.press('Enter');
    await expect(section.getByRole('alert')).toHaveText('Gift card not found');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await field.fill('GC-2026-0000');
    await field.press('Enter');
    await expect(section.getByRole('alert')).toHaveText('Gift Card balance is $0');

    // By keyboard: typed in lower case with spaces around.
    await field.fill(' gc-2026-0025 ');
    await field.press('Enter');
    const list = section.getByRole('list', { name: 'Gift cards' });
    await expect(list.getByText('Gift card GC-2026-0025')).toBeVisible();
    await expect(list.getByText('Pays $25.00')).toBeVisible();
    await expect(list.getByText('Remaining balance $0.00')).toBeVisible();
    const rest = cents(total) - 2500;
    const restText = `$${(rest / 100).toFixed(2)}`;
    await expect(section.getByText(`Left to pay by card: ${restText}`)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Gift card GC-2026-0025 applied.' })).toHaveCount(1);
    await field.fill('GC-2026-0025');
    await field.press('Enter');
    await expect(section.getByRole('alert')).toHaveText('Oops! You already applied this gift card');
    // Nothing is taken from the card before paying.
    expect(await balanceOf(page, 'GC-2026-0025')).toBe('25.00');

    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/gift-card-applied-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `${SHOTS}/gift-card-applied-mobile.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await fillCheckout(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    await expect(page.getByText(`Total paid ${total}`)).toBeVisible();
    expect(await balanceOf(page, 'GC-2026-0025')).toBe('0.00');
  });

  test('GC-2026-0050 pays a small order wholly: no card is asked', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 1, children: 0 });
    const total = (await page.locator('.checkout-totals__due dd').textContent())!;
    const section = page.getByRole('region', { name: 'Gift card' });
    await section.getByRole('textbox', { name: 'Gift card number' }).fill('GC-2026-0050');
    await section.getByRole('button', { name: 'Apply' }).click();
    await expect(section.getByText('Your gift cards cover this order: no card payment is needed.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Card number', exact: true })).toHaveCount(0);
    await fillPurchaser(page);
    await page.getByRole('button', { name: 'Complete order' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    await expect(page.getByText(`Total paid ${total}`)).toBeVisible();
    expect(cents(await balanceOf(page, 'GC-2026-0050'))).toBe(5000 - cents(total));
  });

  test('a gift card bought here pays a later order', async ({ page }) => {
    const giftEvent = (await apiEvents(page.request)).find((e) => e.name === 'Museum Gift Card')!;
    const detail = await (await page.request.get(`/api/events/${giftEvent.id}?_seller=demo&_embed=ticket_type`)).json();
    const type = detail.ticket_type._data.find((t: { name: string }) => t.name === '$25 Gift Card');
    const reserved = await page.request.post('/api/cart/modify?_seller=demo', {
      headers: { 'X-Ticketing-App': 'ecomm' },
      data: { add: [{ ticket_type_id: type.id, event_session_id: null }] },
    });
    expect(reserved.status(), await reserved.text()).toBe(200);
    await page.goto(`/checkout/${(await reserved.json()).cart._data[0].id}`);
    await fillCheckout(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    const issued = page.getByText(/^Gift card number GC-[0-9A-Z-]+, balance \$25\.00$/);
    await expect(issued).toBeVisible();
    const number = /GC-[0-9A-Z-]+/.exec((await issued.textContent())!)![0];
    await page.screenshot({ path: `${SHOTS}/gift-card-bought-desktop.png`, fullPage: true });

    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 0, children: 1 });
    const section = page.getByRole('region', { name: 'Gift card' });
    await section.getByRole('textbox', { name: 'Gift card number' }).fill(number);
    await section.getByRole('button', { name: 'Apply' }).click();
    await expect(section.getByText('Your gift cards cover this order: no card payment is needed.')).toBeVisible();
    await fillPurchaser(page);
    await page.getByRole('button', { name: 'Complete order' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    expect(await balanceOf(page, number)).toBe('13.00');
  });
});

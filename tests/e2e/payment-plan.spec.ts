import { mkdirSync } from 'node:fs';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, fillCheckout, firstSessionTomorrow, reserveThroughApi } from './helpers';

const SHOTS = '/tmp/shots';
const DAY = 86_400_000;

/**
 * Issue 13: the box office puts a visitor's cart on a payment plan (the staff API, in a context of its own so the
 * visitor's browser holds no staff cookie); the visitor pays what is due, then the rest, in the real server.
 */
test('a payment plan: the schedule shows, what is due is paid first, then the balance books the order', async ({ page, baseURL }) => {
  mkdirSync(SHOTS, { recursive: true });
  const session = await firstSessionTomorrow(page.request);
  await page.goto('/events');
  const cartId = await reserveThroughApi(page, 'demo', session.sessionId, [session.types.Adult, session.types.Adult, session.types.Child], {
    [session.groups.Adult]: { zip_code: '10001' },
  });
  const cart = await (await page.request.get(`/api/cart/${cartId}?_seller=demo`)).json();
  const owed = Math.round(Number(cart.cart._data[0].cart_fees.grand_totals.total_outstanding) * 100);
  const first = Math.round(owed / 3);
  const second = Math.round(owed / 3);
  const boxOffice = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { 'X-Ticketing-App': 'ecomm' } });
  expect(
    (await boxOffice.post('/api/staff/login?_seller=demo', { data: { email: 'staff@example.com', password: 'StaffDemo2026!' } })).status(),
  ).toBe(200);
  const part = (days: number, minor: number) => ({
    due_date: new Date(Date.now() + days * DAY).toISOString(),
    amount: (minor / 100).toFixed(2),
  });
  const set = await boxOffice.put(`/api/staff/cart/${cartId}/payment_schedule?_seller=demo`, {
    data: { parts: [part(-1, first), part(10, second), part(40, owed - first - second)] },
  });
  expect(set.status(), await set.text()).toBe(200);
  await boxOffice.dispose();
  const dollars = (minor: number) => `$${(minor / 100).toFixed(2)}`;

  await page.goto(`/checkout/${cartId}`);
  const summary = page.getByRole('region', { name: 'Order summary' });
  const plan = summary.getByRole('list', { name: 'Payment schedule' });
  await expect(plan.getByRole('listitem')).toHaveCount(3);
  await expect(plan.getByText('Overdue')).toHaveCount(1);
  await expect(plan.getByText('Upcoming')).toHaveCount(2);
  // Nothing runs out on a held cart.
  await expect(page.getByText(/Your tickets are held for/)).toHaveCount(0);
  const choice = page.getByRole('group', { name: 'How much would you like to pay now?' });
  await expect(choice.getByRole('radio', { name: `Amount due now: ${dollars(first + second)}` })).toBeChecked();
  await expect(choice.getByRole('radio', { name: `Full balance: ${dollars(owed)}` })).toBeVisible();
  // Another amount is kept between what is due and the balance.
  await choice.getByRole('radio', { name: 'Another amount' }).check();
  const other = choice.getByRole('textbox', { name: 'Amount to pay' });
  await other.fill('1');
  await other.blur();
  await expect(other).toHaveValue(((first + second) / 100).toFixed(2));
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/payment-plan-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/payment-plan-mobile.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Pay what is due: the cart comes back with the rest, the page goes to the top, the card starts afresh.
  await choice.getByRole('radio', { name: /Amount due now/ }).check();
  await fillCheckout(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay now' }).click();
  const rest = owed - first - second;
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Thank you: your payment of ${dollars(first + second)} was received. ${dollars(rest)} remains to be paid.` }),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Card number', exact: true })).toHaveValue('');
  await expect(plan.getByRole('listitem')).toHaveCount(1);
  await expect(summary.getByRole('list', { name: 'Payments made' }).getByRole('listitem')).toHaveCount(1);
  // One part is left: what is due is the balance, so no choice is offered.
  await expect(choice).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/payment-plan-part-paid-desktop.png`, fullPage: true });

  await fillCheckout(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
  await expect(page.getByText(`Total paid ${dollars(owed)}`)).toBeVisible();
});

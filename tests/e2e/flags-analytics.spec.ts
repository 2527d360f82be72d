import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  addCountsThroughUi,
  checkBothSizes,
  expectNoSeriousA11yViolations,
  fillCheckout,
  firstSessionTomorrow,
  pickSessionOnPage,
  skipUpsells,
  type TomorrowSession,
} from './helpers';
import { FLAGS_SELLER } from './setup-sellers-constants';

/**
 * Issue 22, feature flags and ecommerce events, on 'e2e-flags' (tests/e2e/setup-sellers.ts): a demo copy with
 * analytics on (consent asked) whose folder the server watches, so rewriting its config.json is how a seller
 * switches a flag on a running server.
 */
const configFile = () => path.join(process.env.E2E_FLAGS_DIR!, 'config.json');
const readSellerConfig = () => JSON.parse(readFileSync(configFile(), 'utf8')) as Record<string, any>;
function setFlags(flags: Record<string, boolean>) {
  const config = readSellerConfig();
  config.flags = { ...config.flags, ...flags };
  writeFileSync(configFile(), JSON.stringify(config, null, 2));
}

/** On an event detail already open: the session's date and time, the counts, the ZIP the survey asks, 'Add to cart',
 *  past the upsell chain's listing to checkout. */
async function addThroughUi(page: Page, session: TomorrowSession, counts: { adults: number; children: number }) {
  await pickSessionOnPage(page, session);
  await addCountsThroughUi(page, counts);
  await skipUpsells(page);
}

type Pushed = { event?: string; ecommerce?: { items?: Array<Record<string, unknown>>; [key: string]: unknown } | null };
const dataLayer = (page: Page) =>
  page.evaluate(() => (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? null) as Promise<Pushed[] | null>;

test.describe.configure({ mode: 'serial' });

test.describe('feature flags and ecommerce events', () => {
  test.afterEach(() => setFlags({ promo_field: true }));

  test('after consent, a purchase leaves the whole ecommerce sequence in dataLayer, priced per spec, without personal data', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const session = await firstSessionTomorrow(page.request, FLAGS_SELLER);
    await page.goto(`/${FLAGS_SELLER}/events`);
    const prompt = page.getByRole('region', { name: 'Help us improve this site' });
    await expect(prompt).toBeVisible();
    await expect(page.getByRole('link', { name: `View event: ${session.eventName}` })).toBeVisible();
    // Before the answer nothing is pushed, and no tag manager is loaded (this seller names none, ever).
    expect(await dataLayer(page)).toBeNull();
    await expectNoSeriousA11yViolations(page);
    await checkBothSizes(page, 'analytics-consent');
    await prompt.getByRole('button', { name: 'Allow measurement' }).focus();
    await page.keyboard.press('Enter');
    await expect(prompt).toHaveCount(0);

    // Through the storefront's own links (one page load: the dataLayer lives in it).
    await page.getByRole('link', { name: `View event: ${session.eventName}` }).click();
    await addThroughUi(page, session, { adults: 1, children: 0 });
    const summary = page.getByRole('region', { name: 'Order summary' });
    await summary.getByRole('button', { name: new RegExp(`^Remove ${session.eventName}`) }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
    // An empty checkout goes home, which is the admission event for this seller.
    await expect(page).toHaveURL(new RegExp(`/events/${session.eventId}$`));
    await addThroughUi(page, session, { adults: 2, children: 1 });
    const field = page.getByRole('region', { name: 'Order summary' }).getByRole('textbox', { name: 'Promo code' });
    await field.fill('SPRING10');
    await field.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Promo code SPRING10 applied' })).toHaveCount(1);
    await fillCheckout(page, '4242 4242 4242 4242', { first: 'Grace', last: 'Hopper', email: 'grace@example.com' });
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    const orderId = new URL(page.url()).searchParams.get('orderIds')!.split(',')[0];

    const layer = (await dataLayer(page))!;
    const events = layer.filter((e) => e.event && e.ecommerce).map((e) => e.event);
    expect(events).toEqual([
      'view_item_list',
      'view_item',
      'add_to_cart',
      'begin_checkout',
      'remove_from_cart',
      // back on the same event: no second view_item (one per event shown, src/analytics/start.tsx)
      'add_to_cart',
      'begin_checkout',
      'add_payment_info',
      'purchase',
    ]);
    // Each event clears the previous ecommerce object first (GA4's advice).
    expect(layer.filter((e) => e.ecommerce === null)).toHaveLength(events.length);
    const text = JSON.stringify(layer);
    for (const personal of ['grace@example.com', 'Grace', 'Hopper', '10001']) expect(text).not.toContain(personal);

    // The purchase's prices from the order's own tickets: average adjusted value per type, discount face minus adjusted.
    const order = await (await page.request.get(`/api/ticket_order/${orderId}?_seller=${FLAGS_SELLER}&_embed=ticket`)).json();
    const tickets = order.ticket._data as Array<{ ticket_type_id: string; face_value: string; adjusted_value: string }>;
    const expected = new Map<string, { count: number; face: number; adjusted: number }>();
    for (const t of tickets) {
      const e = expected.get(t.ticket_type_id) ?? { count: 0, face: 0, adjusted: 0 };
      e.count += 1;
      e.face += Math.round(Number(t.face_value) * 100);
      e.adjusted += Math.round(Number(t.adjusted_value) * 100);
      expected.set(t.ticket_type_id, e);
    }
    const purchase = layer.find((e) => e.event === 'purchase')!.ecommerce!;
    expect(purchase).toMatchObject({ currency: 'USD', transaction_id: orderId });
    const items = purchase.items!;
    expect(items).toHaveLength(expected.size);
    let value = 0;
    for (const item of items) {
      const e = expected.get(item.item_id as string)!;
      expect(item.quantity).toBe(e.count);
      expect(item.price).toBeCloseTo(e.adjusted / e.count / 100, 2);
      expect(item.discount).toBeCloseTo((e.face - e.adjusted) / e.count / 100, 2);
      value += (item.price as number) * e.count;
    }
    expect(purchase.value).toBeCloseTo(value, 2);
    // SPRING10 took 10 % off the admission tickets: some item carries a discount.
    expect(items.some((i) => (i.discount as number) > 0)).toBe(true);
    expect(layer.find((e) => e.event === 'add_payment_info')!.ecommerce).toMatchObject({ payment_type: 'card' });
    expect(await page.locator('script[data-tag-manager]').count()).toBe(0);
  });

  test('turning the promo-field flag off in the seller config hides the field on an open checkout within two polls', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request, FLAGS_SELLER);
    // A visitor who declined: the checkout works the same, and nothing is measured.
    await page.goto(`/${FLAGS_SELLER}/events/${session.eventId}`);
    await page.getByRole('button', { name: 'No thanks' }).click();
    await addThroughUi(page, session, { adults: 1, children: 0 });
    const field = page.getByRole('region', { name: 'Order summary' }).getByRole('textbox', { name: 'Promo code' });
    await expect(field).toBeVisible();
    setFlags({ promo_field: false });
    // Two polls at the default 1000 ms, plus the server's look at the file (250 ms).
    await expect(field).toHaveCount(0, { timeout: 2_500 });
    setFlags({ promo_field: true });
    await expect(field).toBeVisible({ timeout: 2_500 });
    expect(await dataLayer(page)).toBeNull();
  });
});

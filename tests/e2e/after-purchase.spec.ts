import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  TALK,
  expectNoSeriousA11yViolations,
  fillCard,
  fillCheckout,
  firstSessionTomorrow,
  freeTalkSession,
  reserveThroughUi,
} from './helpers';
import { REFUNDS_SELLER } from './setup-sellers-constants';

const SHOTS = '/tmp/shots';
const TOUR = 'Behind the Scenes: Conservation Studio Tour';

/** The demo's conservation tour: an 11:00 session two days ahead or more, and the pricier 14:00 of the same day. */
async function tourSessions(request: APIRequestContext, seller = 'demo') {
  const events = await (await request.get(`/api/events/available?_seller=${seller}&hidden_type._in=public_browsable`)).json();
  const event = events.event_template._data.find((e: { name: string }) => e.name === TOUR);
  const list = await (await request.get(`/api/events/${event.id}/sessions?_seller=${seller}&_sort=start_datetime&_limit=40`)).json();
  const sessions = list.event_session._data as Array<{ id: string; start_datetime: string; priceIncrease: string; used_capacity: number }>;
  const from = sessions.find((s) => new Date(s.start_datetime).getTime() > Date.now() + 48 * 3_600_000 && s.priceIncrease === '0.00')!;
  const to = sessions.find((s) => new Date(s.start_datetime).getTime() === new Date(from.start_datetime).getTime() + 3 * 3_600_000)!;
  expect(to.priceIncrease, 'the 14:00 tour costs 5.00 more').toBe('5.00');
  const used = async (id: string) => {
    const again = await (await request.get(`/api/events/${event.id}/sessions?_seller=${seller}&_sort=start_datetime&_limit=40`)).json();
    return again.event_session._data.find((s: { id: string }) => s.id === id).used_capacity as number;
  };
  return { eventId: event.id as string, from, to, used };
}

/** The newest order mail to `email` on the outbox page: its /_outbox/{id} address. */
async function orderMailUrl(page: Page, email: string, subject: RegExp): Promise<string> {
  let href = '';
  await expect
    .poll(
      async () => {
        const html = await (await page.request.get('/_outbox')).text();
        const article = html.split('<article>').find((a) => a.includes(email) && subject.test(a));
        href = /href="(\/_outbox\/[0-9a-f-]{36})"/.exec(article ?? '')?.[1] ?? '';
        return href;
      },
      { message: `an order mail to ${email}` },
    )
    .not.toBe('');
  return href;
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const [label, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['mobile', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `${SHOTS}/after-${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('after the purchase (issue 17)', () => {
  test('a guest books a free talk, opens the e-mail in the outbox, follows its manage link and cancels; the place returns', async ({
    page,
    browser,
  }) => {
    const email = `talk-${Date.now()}@example.com`;
    const { eventId, sessionId } = await freeTalkSession(page.request);
    const usedOf = async () => {
      const s = await (await page.request.get(`/api/events/${eventId}/sessions?_seller=demo&_sort=start_datetime&_limit=10`)).json();
      return s.event_session._data.find((x: { id: string }) => x.id === sessionId).used_capacity as number;
    };
    const before = await usedOf();

    // Buy: one free place, straight to the checkout (spec section 2 preselection), then 'Complete order'.
    await page.goto(`/events/${eventId}?session=${sessionId}&quantity=${encodeURIComponent('Free place:1')}&reserve=1`);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
    const field = (name: string) => page.getByRole('textbox', { name, exact: true });
    await field('First Name').fill('Gwen');
    await field('Last Name').fill('Guest');
    await field('Email Address').fill(email);
    await field('Confirm Email Address').fill(email);
    const terms = page.getByLabel('I accept the terms and conditions');
    if (await terms.count()) await terms.check();
    await page.getByRole('button', { name: 'Complete order' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
    // The seller's background image (config web.completion_image) above the confirmation.
    await expect
      .poll(() => page.locator('.completion-page__image img').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'completion');
    expect(await usedOf()).toBe(before + 1);

    // The e-mail, as the outbox shows it: the ticket's QR code drawn inline, the manage link.
    const mailUrl = await orderMailUrl(page, email, /your tickets, order/);
    await page.goto(mailUrl);
    const qr = page.getByRole('img', { name: /^QR code of ticket [0-9A-F]{32}$/ });
    await expect(qr).toHaveCount(1);
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect(page.getByText(TALK)).toBeVisible();
    // The seller's logo (config web.logo) heads it.
    const logo = page.getByRole('img', { name: 'Demo Museum of Art & Science' });
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await shoot(page, 'mail');
    const manage = page.getByRole('link', { name: 'Manage your order' });
    const href = await manage.getAttribute('href');
    expect(href).toMatch(/\/manage\/[0-9a-f-]{36}\?sig=[A-Za-z0-9_-]{43}$/);

    // Another browser (no cookie of the purchase) opens the link: only the signature proves the order.
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const other = await visitor.newPage();
    await other.goto(new URL(href!).pathname + new URL(href!).search);
    await expect(other.getByRole('heading', { level: 1, name: /^Your order \d+$/ })).toBeVisible();
    await expect(other).not.toHaveURL(/sig=/);
    await expect(other.getByText(TALK)).toBeVisible();
    await expectNoSeriousA11yViolations(other);
    await shoot(other, 'manage');

    // Without the signature the same address shows nothing of the order.
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(new URL(href!).pathname);
    await expect(strangerPage.getByRole('alert')).toHaveText('We could not find that order.');
    await stranger.close();

    await other.getByRole('button', { name: 'Cancel my tickets' }).click();
    await expect(other.getByText('Cancel these tickets? This cannot be undone.')).toBeVisible();
    await expect(other.getByRole('button', { name: 'Yes, cancel them' })).toBeFocused();
    await other.keyboard.press('Enter');
    await expect(other.getByRole('status').filter({ hasText: 'Your tickets are cancelled.' })).toBeVisible();
    await expect(other.getByText('Cancelled', { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(other);
    await shoot(other, 'cancelled');
    expect(await usedOf()).toBe(before);
    await orderMailUrl(page, email, /is cancelled/);

    // Reloaded (the signature kept for this tab only): nothing left to cancel.
    await other.reload();
    await expect(other.getByText('No valid tickets found on this order.')).toBeVisible();
    await visitor.close();
  });

  test('a paid order is moved to a pricier time: the warning, the unsaved change, the difference paid; the places move', async ({
    page,
  }) => {
    const { eventId, from, to, used } = await tourSessions(page.request);
    const [fromBefore, toBefore] = [await used(from.id), await used(to.id)];
    await page.goto(`/events/${eventId}?session=${from.id}&quantity=${encodeURIComponent('Adult:1')}&reserve=1`);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
    const email = `move-${Date.now()}@example.com`;
    await fillCheckout(page, '4242 4242 4242 4242', { first: 'Mo', last: 'Mover', email });
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    const orderId = new URL(page.url()).searchParams.get('orderIds')!;

    // The buying browser opens its order: the tour can be rescheduled (the demo's edit_order rules).
    await page.goto(`/manage/${orderId}`);
    await page.getByRole('link', { name: new RegExp(`^Reschedule ${TOUR}`) }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Reschedule your visit' })).toBeVisible();
    await expect(page.getByRole('button', { name: /11:00 AM/ })).toBeDisabled();
    // By keyboard: the new time, then Tab to 'Reschedule'.
    await page.getByRole('button', { name: /2:00 PM/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('This time costs $5.00 more. You pay the difference when you confirm your changes.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'reschedule');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Reschedule', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');

    // Unsaved: the new place is held, the old one still the order's.
    await expect(page.getByRole('heading', { name: 'Your changes' })).toBeVisible();
    await expect(page.getByText('To pay: $5.00')).toBeVisible();
    await expect(page.getByText(/^Moving to .* 2:00 PM once you confirm your changes\.$/)).toBeVisible();
    expect([await used(from.id), await used(to.id)]).toEqual([fromBefore + 1, toBefore + 1]);
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'unsaved');

    // Confirm: the checkout pays the difference (no purchaser form: the order has one), then back to the order.
    await page.getByRole('button', { name: 'Confirm changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/manage/${orderId}/confirm$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'First Name', exact: true })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Order summary' }).getByText('$5.00').last()).toBeVisible();
    await fillCard(page, '4242 4242 4242 4242');
    await shoot(page, 'confirm');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(new RegExp(`/manage/${orderId}$`));
    await expect(page.getByRole('status').filter({ hasText: 'Your changes are saved.' })).toBeVisible();
    await expect(page.getByText(/2:00 PM/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your changes' })).toHaveCount(0);
    expect([await used(from.id), await used(to.id)]).toEqual([fromBefore, toBefore + 1]);
    await orderMailUrl(page, email, /has changed/);
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'saved');
  });

  test('where the seller allows it, a paid order is cancelled with its refund shown first; the places return', async ({ page }) => {
    const { eventId, from, used } = await tourSessions(page.request, REFUNDS_SELLER);
    const at = (path: string) => `/${REFUNDS_SELLER}${path}`;
    const before = await used(from.id);
    await page.goto(at(`/events/${eventId}?session=${from.id}&quantity=${encodeURIComponent('Adult:2')}&reserve=1`));
    await fillCheckout(page, '4242 4242 4242 4242', { first: 'Ray', last: 'Refund', email: `refund-${Date.now()}@example.com` });
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    const orderId = new URL(page.url()).searchParams.get('orderIds')!;
    expect(await used(from.id)).toBe(before + 2);

    await page.goto(at(`/manage/${orderId}`));
    await expect(page.getByText('You can cancel these tickets. $40.00 goes back to the card or gift card you paid with.')).toBeVisible();
    await page.getByRole('button', { name: 'Cancel my tickets' }).click();
    await expect(page.getByText('Cancel these tickets and refund $40.00? This cannot be undone.')).toBeVisible();
    await shoot(page, 'refund-confirm');
    await page.getByRole('button', { name: 'Yes, cancel them' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Your tickets are cancelled and $40.00 is refunded' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shoot(page, 'refunded');
    expect(await used(from.id)).toBe(before);
    const order = await (await page.request.get(`/api/ticket_order/${orderId}/self_edit?_seller=${REFUNDS_SELLER}`)).json();
    expect(order.order_refund._data).toEqual([expect.objectContaining({ amount: '40.00', gateway_id: 'test', status: 'succeeded' })]);
  });

  test('a paid order cannot be cancelled online: "You must contact us to cancel this order."', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 1, children: 0 });
    await fillCheckout(page, '4242 4242 4242 4242', { first: 'Pat', last: 'Paid', email: 'pat@example.com' });
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    const orderId = new URL(page.url()).searchParams.get('orderIds')!;
    // The buying browser (its cart cookie) may open its order's manage screen without the e-mail's link.
    await page.goto(`/manage/${orderId}`);
    await expect(page.getByText('You must contact us to cancel this order.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel my tickets' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });
});

import { expect, test, type Page } from '@playwright/test';
import { checkBothSizes, firstSessionTomorrow, reserveThroughApi } from './helpers';
import { loginThroughApi } from './login-helpers';

/** The demo member of sellers/demo/catalog.json. */
const MEMBER = { email: 'member@example.com', password: 'MuseumDemo2026!', scanCode: 'M20260001', first: 'Jordan', last: 'Rivera' };
const ECOMM = { 'X-Ticketing-App': 'ecomm' };

/** Buys one Adult ticket for tomorrow's first session as the logged-in user, through the real API. */
async function buyOneAdult(page: Page, seller: string) {
  const session = await firstSessionTomorrow(page.request, seller);
  const cartId = await reserveThroughApi(page, seller, session.sessionId, [session.types.Adult], {
    [session.groups.Adult]: { zip_code: '10024' },
  });
  const cart = await (await page.request.get(`/api/cart/${cartId}?_seller=${seller}`)).json();
  const amount = cart.cart._data[0].cart_fees.grand_totals.total_outstanding;
  const paid = await page.request.post(`/api/cart/${cartId}/guest_checkout?_seller=${seller}`, {
    headers: ECOMM,
    data: {
      amount,
      gateway_id: 'test',
      gateway_data: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
    },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const order = (await paid.json()).ticket_order._data[0] as { id: string; order_number: string };
  return { order, session };
}

test.describe('account area', () => {
  test('the demo member sees the membership, the profile, a new order and its upcoming visit', async ({ page }) => {
    // One login for the whole walk (logins per account are rate-limited); axe runs twice on each of 6 screens.
    test.setTimeout(120_000);
    await loginThroughApi(page, 'demo', MEMBER.email, MEMBER.password);
    const { order, session } = await buyOneAdult(page, 'demo');

    // Guard 3: an active member goes to /my/membership, keeping the query (the hash: its own test below).
    await page.goto('/my?from=e2e');
    await expect(page).toHaveURL(/\/my\/membership\?from=e2e$/);
    const nav = page.getByRole('navigation', { name: 'My account' });
    for (const name of ['Membership', 'Profile', 'Upcoming visits', 'Recent orders', 'Logout']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('link', { name: 'Membership', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1, name: 'Membership' })).toBeVisible();
    const card = page.locator('.account-card').first();
    await expect(card.getByRole('heading', { level: 2 })).toContainText('Current membership');
    await expect(card.getByText(MEMBER.scanCode)).toBeVisible();
    await expect(card.locator('dt', { hasText: 'Auto-renew' }).locator('+ dd')).toContainText('Enrolled');
    await expect(card.locator('dt', { hasText: 'Valid to' }).locator('+ dd')).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    await checkBothSizes(page, 'membership');

    await nav.getByRole('link', { name: 'Profile', exact: true }).click();
    await expect(page).toHaveURL(/\/my\/profile$/);
    const profile = page.locator('.account-details');
    await expect(profile.locator('dt', { hasText: 'Email Address' }).locator('+ dd')).toHaveText(MEMBER.email);
    await expect(profile.locator('dt', { hasText: 'First Name' }).locator('+ dd')).toHaveText(MEMBER.first);
    await expect(profile.locator('dt', { hasText: 'Last Name' }).locator('+ dd')).toHaveText(MEMBER.last);
    await expect(page.locator('main input')).toHaveCount(0);
    await checkBothSizes(page, 'profile');

    await nav.getByRole('link', { name: 'Recent orders', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Recent orders' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: `Order ${order.order_number}`, exact: true })).toBeVisible();
    await checkBothSizes(page, 'orders');
    await page.getByRole('link', { name: `View order ${order.order_number}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/my/orders/${order.id}$`));
    const qr = page.getByRole('img', { name: `QR code for order ${order.order_number}` });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect(page.locator('.account-tickets__item')).toHaveCount(1);
    await expect(page.locator('.account-tickets__item')).toContainText(`${session.eventName} · Adult`);
    await expect(page.locator('.account-tickets__item')).toContainText(/Ticket code \S+/);
    await checkBothSizes(page, 'order');

    await nav.getByRole('link', { name: 'Upcoming visits', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Upcoming visits' })).toBeVisible();
    const visitLink = page.locator(`a[href$="/my/upcoming/session/${session.sessionId}"]`);
    await expect(visitLink).toBeVisible();
    await checkBothSizes(page, 'upcoming');
    await visitLink.click();
    await expect(page.getByRole('heading', { level: 1, name: session.eventName })).toBeVisible();
    await expect(page.getByRole('link', { name: `View order ${order.order_number}`, exact: true })).toBeVisible();
    await expect(page.locator('.account-tickets__item').first()).toContainText('Adult');
    await checkBothSizes(page, 'visit');

    // An order that is not the user's (or does not exist): the spec's text.
    await page.goto('/my/orders/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('alert')).toHaveText('We could not find that order.');

    // Set email address: the form's own rules before anything is sent.
    await page.goto('/user/set-email-address');
    await page.getByRole('textbox', { name: 'Email Address', exact: true }).fill('kim@localhost');
    await page.getByRole('textbox', { name: 'Confirm Email Address', exact: true }).fill('kim@localhost');
    await page.getByRole('button', { name: 'Save email address' }).click();
    await expect(page.getByText('Email address is not valid.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Email Address', exact: true }).fill('kim@example.com');
    await page.getByRole('textbox', { name: 'Confirm Email Address', exact: true }).fill('kim@example.org');
    await page.getByRole('button', { name: 'Save email address' }).click();
    await expect(page.getByText('Email addresses must match.')).toBeVisible();
    await checkBothSizes(page, 'set-email');

    // Spec section 6: a logged-in user is sent away from the forgot and reset pages.
    for (const path of ['/user/forgot-password', '/user/reset-password?token=abc', '/user/forgot-membership']) {
      await page.goto(path);
      await expect(page).not.toHaveURL(/\/user\//);
    }
  });

  test('guard 3 keeps query and hash: /my goes to /my/profile for a visitor who is not a member', async ({ page }) => {
    await page.goto('/my?tab=1#orders');
    await expect(page).toHaveURL(/\/my\/profile\?tab=1#orders$/);
    // And on a client-side navigation (no page load).
    await page.goto('/resend');
    // The app is up (its router listens for popstate once its first render commits; a page load does not wait
    // for that), as it is for a visitor who follows a link inside it.
    await expect(page.getByRole('heading', { level: 1, name: 'Resend my tickets' })).toBeVisible();
    await page.evaluate(() => {
      history.pushState(null, '', '/my?tab=2#top');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page).toHaveURL(/\/my\/profile\?tab=2#top$/);
  });

  test('a visitor who is not logged in sees the login form in the account area', async ({ page }) => {
    await page.goto('/my/orders');
    await expect(page.getByRole('heading', { level: 1, name: 'Log in to see your account' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'My account' })).toHaveCount(0);
    await checkBothSizes(page, 'login');
  });
});

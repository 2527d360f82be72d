import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { expectNoSeriousA11yViolations, fillCheckout, firstSessionTomorrow, reserveThroughUi } from './helpers';
import { openLoginDialog } from './login-helpers';

/** Accounts with a password (issue 13): sign-up from the login dialog, 'create an account' at checkout, and an e-mail
 *  that already has an account. Every visitor here is new: a unique e-mail per run. */
const SHOTS = '/tmp/shots';
const PASSWORD = 'Museum-Visit-2026';
const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.org`;
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const greeting = (page: Page, first: string) => page.getByRole('banner').getByRole('button', { name: `Hi, ${first}` });

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/sign-up-${name}.png`, fullPage: true });
}

test.describe('accounts with a password', () => {
  test('a visitor signs up from the login dialog, comes back logged in, and logs in again with the password', async ({ page }) => {
    const email = unique('grace');
    await page.goto('/events');
    const dialog = await openLoginDialog(page);
    await dialog.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL(/\/user\/sign-up$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();

    // Nothing filled: the first field says so and has the focus.
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(field(page, 'First Name')).toBeFocused();
    await expect(field(page, 'First Name')).toHaveAttribute('aria-invalid', 'true');

    await field(page, 'First Name').fill('Grace');
    await field(page, 'Last Name').fill('Hopper');
    await field(page, 'Email Address').fill(email);
    await field(page, 'Confirm Email Address').fill(email.toUpperCase());
    // A weak password: the live checklist shows what is missing, and the form names it.
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm Password', { exact: true }).fill('short');
    await expect(page.locator('[data-rule="min_length"]')).toHaveAttribute('data-met', 'false');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Invalid password')).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'form-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'form-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    await expect(page.locator('[data-rule]')).toHaveCount(5);
    await expect(page.locator('[data-met="false"]')).toHaveCount(0);
    await page.getByLabel('Confirm Password', { exact: true }).press('Enter');
    // Back where the visitor came from, logged in.
    await expect(page).toHaveURL(/\/events$/);
    await expect(greeting(page, 'Grace')).toBeVisible();

    await greeting(page, 'Grace').click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toBeVisible();
    const again = await openLoginDialog(page);
    await again.getByRole('textbox', { name: 'Email address', exact: true }).fill(email);
    await again.getByLabel(/^Password/).fill(PASSWORD);
    await again.getByRole('button', { name: 'Log in' }).click();
    await expect(greeting(page, 'Grace')).toBeVisible();
  });

  test('a guest adds a donation at checkout and creates an account with the order; afterwards the order is in the account', async ({
    page,
  }) => {
    const email = unique('alan');
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 1, children: 0 });

    // The checkout's donation offer (spec section 2, checkout_donation_tg_id): a preset amount goes into the cart.
    const donation = page.getByRole('region', { name: 'Add a donation' });
    await donation.getByRole('radio', { name: '$10.00' }).check();
    await donation.getByRole('button', { name: 'Add donation' }).click();
    await expect(donation.getByRole('status')).toContainText('$10.00');
    await expect(page.getByText('Support the Museum').first()).toBeVisible();

    await fillCheckout(page, '4242 4242 4242 4242', { first: 'Alan', last: 'Turing', email });
    await page.getByRole('checkbox', { name: 'Create an account with these details' }).check();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill('Museum-Visit-2027');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByText('Passwords must match.')).toBeVisible();
    await expect(page.getByLabel('Confirm Password', { exact: true })).toBeFocused();
    await shot(page, 'checkout-desktop');
    await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    // The account is the visitor's at once: logged in, so the confirmation offers no 'create an account'.
    await expect(greeting(page, 'Alan')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Keep your tickets and membership in one place' })).toHaveCount(0);
    const orderNumber = (await page
      .getByText(/^Order #?\d+/)
      .first()
      .textContent())!;

    await page.goto('/my/orders');
    await expect(page.getByText(orderNumber.trim()).first()).toBeVisible();
  });

  test('an e-mail that has an account: the wrong password says so with the forgot-password link; the right one buys into the account', async ({
    page,
    browser,
  }) => {
    const email = unique('ada');
    // The account exists already (made on another device).
    const other = await browser.newContext();
    const made = await other.request.post('/api/user?_seller=demo', {
      headers: { 'X-Ticketing-App': 'ecomm' },
      data: { first_name: 'Ada', last_name: 'Byron', email, email_confirm: email, password: PASSWORD },
    });
    expect(made.status(), await made.text()).toBe(200);
    await other.close();

    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 1, children: 0 });
    await fillCheckout(page, '4242 4242 4242 4242', { first: 'Ada', last: 'Byron', email });
    await page.getByRole('checkbox', { name: 'Create an account with these details' }).check();
    await page.getByLabel('Password', { exact: true }).fill('Not-The-Password-1');
    await page.getByLabel('Confirm Password', { exact: true }).fill('Not-The-Password-1');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByText('That is not the correct password. Please try again.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'checkout-wrong-password');

    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    await expect(greeting(page, 'Ada')).toBeVisible();
    const orderId = new URL(page.url()).searchParams.get('orderIds')!;
    const mine = await (await page.request.get('/api/my/ticket_order?_seller=demo')).json();
    expect(mine.ticket_order._data.map((o: { id: string }) => o.id)).toContain(orderId);
  });
});

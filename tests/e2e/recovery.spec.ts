import { expect, test, type APIRequestContext } from '@playwright/test';
import { checkBothSizes, firstSessionTomorrow, reserveThroughApi } from './helpers';
import { E2E_SELLER } from './setup-sellers-constants';

const ECOMM = { 'X-Ticketing-App': 'ecomm' };
/** The 'e2e' seller is a copy of the demo with its own member account: this file changes that account's
 *  password (and puts it back), so the demo seller's member used by other files is never touched. */
const MEMBER = { email: 'member@example.com', password: 'MuseumDemo2026!' };
const INVALID_LINK = 'This reset link is not valid. It may have expired.';

/** The newest reset token mailed for this seller, read from the outbox page the server keeps outside production. */
async function newestResetToken(request: APIRequestContext, sellerPrefix: string, after?: string): Promise<string> {
  let token = '';
  await expect
    .poll(
      async () => {
        const html = await (await request.get('/_outbox')).text();
        const match = html.match(new RegExp(`${sellerPrefix}/user/reset-password\\?token=([A-Za-z0-9_-]+)`));
        token = match?.[1] ?? '';
        return token && token !== after ? token : '';
      },
      { message: 'a reset link in the outbox' },
    )
    .not.toBe('');
  return token;
}

const login = (request: APIRequestContext, password: string) =>
  request.post(`/api/login?_seller=${E2E_SELLER}`, { headers: ECOMM, data: { username: MEMBER.email, password } });

test.describe('password recovery', () => {
  test('forgot password -> link from the outbox -> new password -> log in with it', async ({ page }) => {
    // Two resets (the second puts the password back), each hashing a password with scrypt, and axe twice.
    test.setTimeout(90_000);
    const newPassword = `Reset-${Date.now()}-Ok`;
    await page.goto(`/${E2E_SELLER}/user/forgot-password`);
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await checkBothSizes(page, 'forgot-password');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Please enter your email address.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Email Address' }).fill(MEMBER.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const done = 'If an account exists for that email address, we have sent a link to set a new password. Please check your email inbox.';
    await expect(page.getByRole('status')).toHaveText(done);
    const token = await newestResetToken(page.request, `/${E2E_SELLER}`);

    // An address without an account gets the very same answer.
    await page.reload();
    await page.getByRole('textbox', { name: 'Email Address' }).fill(`nobody-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toHaveText(done);

    await page.goto(`/${E2E_SELLER}/user/reset-password?token=${token}`);
    await expect(page.getByText(`For the account ${MEMBER.email}`)).toBeVisible();
    const password = page.getByLabel('New password', { exact: true });
    const confirm = page.getByLabel('Confirm new password', { exact: true });
    const rule = (name: string) => page.locator(`[data-rule="${name}"]`);
    await password.fill('short');
    await expect(rule('min_length')).toHaveAttribute('data-met', 'false');
    await expect(rule('character_classes')).toHaveAttribute('data-met', 'false');
    await expect(rule('surrounding_space')).toHaveAttribute('data-met', 'true');
    await confirm.fill('short');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('Invalid password', { exact: true })).toBeVisible();
    await password.fill(newPassword);
    for (const name of ['min_length', 'max_length', 'surrounding_space', 'printable', 'character_classes']) {
      await expect(rule(name)).toHaveAttribute('data-met', 'true');
    }
    await confirm.fill(`${newPassword}x`);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('Passwords must match.')).toBeVisible();
    await checkBothSizes(page, 'reset-password');
    await confirm.fill(newPassword);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByRole('status')).toHaveText('Your password has been changed. You can now log in with your new password.');

    // The link worked once.
    await page.goto(`/${E2E_SELLER}/user/reset-password?token=${token}`);
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK);

    // Log in with the new password through the account area's login form.
    await page.goto(`/${E2E_SELLER}/my/profile`);
    await expect(page.getByRole('heading', { level: 1, name: 'Log in to see your account' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Email address', exact: true }).fill(MEMBER.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(newPassword);
    await page.getByRole('main').getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
    await expect(page.locator('.account-details dd').first()).toHaveText(MEMBER.email);
    expect((await login(page.request, MEMBER.password)).status()).toBe(401);

    // Put the seller's member back as it was, through the same API the screens use.
    expect((await page.request.post(`/api/logout?_seller=${E2E_SELLER}`, { headers: ECOMM })).ok()).toBe(true);
    const again = await page.request.post(`/api/password_reset/request?_seller=${E2E_SELLER}`, {
      headers: ECOMM,
      data: { email: MEMBER.email },
    });
    expect(again.ok()).toBe(true);
    const restoreToken = await newestResetToken(page.request, `/${E2E_SELLER}`, token);
    const restored = await page.request.post(`/api/password_reset/reset?_seller=${E2E_SELLER}`, {
      headers: ECOMM,
      data: { token: restoreToken, password: MEMBER.password },
    });
    expect(restored.status(), await restored.text()).toBe(200);
    expect((await login(page.request, MEMBER.password)).status()).toBe(200);
  });

  test('an invalid or missing reset token shows the spec text', async ({ page }) => {
    await page.goto(`/${E2E_SELLER}/user/reset-password?token=not-a-real-token`);
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK);
    await expect(page.getByRole('link', { name: 'Request a new reset link' })).toBeVisible();
    await expect(page.getByLabel('New password')).toHaveCount(0);
    await checkBothSizes(page, 'reset-invalid');
    await page.goto(`/${E2E_SELLER}/user/reset-password`);
    await expect(page.getByRole('alert')).toHaveText(INVALID_LINK);
  });

  test('forgot membership id mails the membership details and answers the same for any address', async ({ page }) => {
    await page.goto('/user/forgot-membership');
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your member ID?' })).toBeVisible();
    await checkBothSizes(page, 'forgot-membership');
    await page.getByRole('textbox', { name: 'Email Address' }).fill('not an address');
    await page.getByRole('button', { name: 'Send membership details' }).click();
    await expect(page.getByText('Email address is not valid.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Email Address' }).fill(`nobody-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Send membership details' }).click();
    await expect(page.getByRole('status')).toHaveText(
      'If a membership exists for that email address, we have sent its details. Please check your email inbox.',
    );
  });
});

test.describe('resend tickets', () => {
  test('an address with an order gets its tickets again; an unknown one gets the spec text', async ({ page }) => {
    const email = `resend-${Date.now()}@example.com`;
    const session = await firstSessionTomorrow(page.request);
    const cartId = await reserveThroughApi(page, 'demo', session.sessionId, [session.types.Adult], {
      [session.groups.Adult]: { zip_code: '10024' },
    });
    const user = await page.request.post('/api/user?_seller=demo', {
      headers: ECOMM,
      data: { first_name: 'Ada', last_name: 'Lovelace', email },
    });
    expect(user.status(), await user.text()).toBe(200);
    const cart = await (await page.request.get(`/api/cart/${cartId}?_seller=demo`)).json();
    const paid = await page.request.post(`/api/cart/${cartId}/guest_checkout?_seller=demo`, {
      headers: ECOMM,
      data: {
        amount: cart.cart._data[0].cart_fees.grand_totals.total_outstanding,
        gateway_id: 'test',
        send_email: false,
        guest_identity_id: (await user.json()).identity._data[0].id,
        gateway_data: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' },
      },
    });
    expect(paid.status(), await paid.text()).toBe(200);

    await page.goto('/resend');
    await expect(page.getByRole('heading', { level: 1, name: 'Resend my tickets' })).toBeVisible();
    await checkBothSizes(page, 'resend');
    await page.getByRole('textbox', { name: 'Email Address' }).fill(`unknown-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Resend tickets' }).click();
    await expect(page.getByRole('alert')).toHaveText('No orders could be found for this email address.');
    await checkBothSizes(page, 'resend-error');

    await page.getByRole('textbox', { name: 'Email Address' }).fill(email);
    await page.getByRole('button', { name: 'Resend tickets' }).click();
    await expect(page.getByRole('status')).toHaveText(`We have sent your tickets to ${email}. Please check your email inbox.`);
    // The mail really went out: the outbox holds a message to that address.
    await expect.poll(async () => (await (await page.request.get('/_outbox')).text()).includes(email)).toBe(true);
  });
});

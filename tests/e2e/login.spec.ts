import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './helpers';
import { DEMO_MEMBER, LOGIN_SELLERS } from './login-sellers';
import { expectGreeting, expectLoggedOutHeader, localPath, openLoginDialog, readOtpMail, shot, wrongCode } from './login-helpers';

const { otp, otpOrPassword, scanCode, scanCodeLastName, none, hosted, presell } = LOGIN_SELLERS;
const field = (scope: { getByRole: import('@playwright/test').Page['getByRole'] }, name: string) =>
  scope.getByRole('textbox', { name, exact: true });

test.describe('password login', () => {
  test('the demo member logs in from the header, sees the greeting and logs out to /', async ({ page }) => {
    await page.goto('/events');
    const dialog = await openLoginDialog(page);
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'dialog-desktop', false);
    await field(dialog, 'Email address').fill(DEMO_MEMBER.email);
    await dialog.getByLabel(/^Password/).fill(DEMO_MEMBER.password);
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(dialog).toBeHidden();
    await expectGreeting(page);

    const menu = page.getByRole('banner').getByRole('button', { name: `Hi, ${DEMO_MEMBER.firstName}` });
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('link', { name: /My account|Membership details/ })).toBeVisible();
    await shot(page, 'member-menu', false);
    await page.getByRole('button', { name: 'Log out' }).click();
    // '/' without presell is the admission event.
    await expect(page).toHaveURL(/\/events\/[0-9a-f-]{36}$/);
    await expectLoggedOutHeader(page);
    expect((await page.request.get('/api/my/user?_seller=demo')).status()).toBe(401);
  });

  test('a wrong password shows the spec text; /logout ends a session', async ({ page }) => {
    await page.goto(`/${presell.slug}/login/callback`);
    await field(page, 'Email address').fill(DEMO_MEMBER.email);
    await page.getByLabel(/^Password/).fill('not-the-password');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('That is not the correct password. Please try again.');
    await expect(page.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'wrong-password');

    // Field rules stop the submit before any request: an invalid address.
    await field(page, 'Email address').fill('member@example');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(field(page, 'Email address')).toHaveAttribute('aria-invalid', 'true');

    await field(page, 'Email address').fill(DEMO_MEMBER.email);
    await page.getByLabel(/^Password/).fill(DEMO_MEMBER.password);
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(new RegExp(`/${presell.slug}/events$`));
    await expectGreeting(page);
    await page.goto(`/${presell.slug}/logout`);
    await expect(page).toHaveURL(new RegExp(`/${presell.slug}/?$`));
    await expectLoggedOutHeader(page);
  });
});

test.describe('home with membership presell', () => {
  test('offers login, join and guest in order with the resend link; a logged-in user is sent to events', async ({ page }) => {
    await page.goto(`/${presell.slug}/`);
    const options = page.getByRole('list', { name: 'How would you like to continue?' }).getByRole('heading', { level: 2 });
    await expect(options).toHaveText(['Log in', 'Join membership', 'Continue as guest']);
    await expect(page.getByRole('link', { name: /Resend tickets/ })).toHaveAttribute('href', `/${presell.slug}/resend`);
    await expect(page.getByRole('link', { name: 'Join membership' })).toHaveAttribute(
      'href',
      new RegExp(`/${presell.slug}/events/[0-9a-f-]{36}$`),
    );
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'home-desktop');

    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log in' });
    await field(dialog, 'Email address').fill(DEMO_MEMBER.email);
    await dialog.getByLabel(/^Password/).fill(DEMO_MEMBER.password);
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(new RegExp(`/${presell.slug}/events$`));
    await page.goto(`/${presell.slug}/`);
    await expect(page).toHaveURL(new RegExp(`/${presell.slug}/events$`));
  });

  test('a logout in another tab shows here within the 1 s check', async ({ page, context }) => {
    await page.goto(`/${presell.slug}/login/callback`);
    await field(page, 'Email address').fill(DEMO_MEMBER.email);
    await page.getByLabel(/^Password/).fill(DEMO_MEMBER.password);
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expectGreeting(page);
    const other = await context.newPage();
    await other.goto(`/${presell.slug}/events`);
    await expectGreeting(other);
    await other.goto(`/${presell.slug}/logout`);
    await expectLoggedOutHeader(other);
    await expectLoggedOutHeader(page);
    await expect(page.getByRole('status').filter({ hasText: 'You were logged out.' })).toBeVisible();
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test('home and the login dialog fit a phone', async ({ page }) => {
      await page.goto(`/${presell.slug}/`);
      await expect(page.getByRole('heading', { level: 2, name: 'Continue as guest' })).toBeVisible();
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shot(page, 'home-mobile');
      await openLoginDialog(page);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'dialog-mobile', false);
    });
  });
});

test.describe('one-time passcode', () => {
  test('three wrong codes need a new passcode, the 4th try fails even with the right code; then the new code logs in', async ({ page }) => {
    await page.goto(`/${otp.slug}/events`);
    const dialog = await openLoginDialog(page);
    await expect(dialog.getByLabel(/^Password/)).toHaveCount(0);
    await field(dialog, 'Email address').fill(DEMO_MEMBER.email);
    const since = new Date();
    await dialog.getByRole('button', { name: 'Email me a link and passcode' }).click();
    await expect(dialog.getByText(`We sent a one-time link and a 6-character passcode to ${DEMO_MEMBER.email}`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'otp-form', false);
    const mail = await readOtpMail(page.request, otp.name, since);

    const code = field(dialog, 'Passcode');
    // Pasted text is stripped to the 6 characters.
    await code.fill(` ${wrongCode(mail.code).slice(0, 3)} ${wrongCode(mail.code).slice(3)} `);
    await expect(code).toHaveValue(wrongCode(mail.code));
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(dialog.getByRole('alert')).toContainText('The passcode you entered is invalid.');
    await expect(dialog.getByRole('alert')).toContainText('You have 2 attempts remaining.');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(dialog.getByRole('alert')).toContainText('You have 1 attempt remaining.');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(dialog.getByRole('alert')).toContainText('You must request a new link to log in.');
    await expect(field(dialog, 'Passcode')).toHaveCount(0);

    // The server agrees: the right code on a 4th try is refused.
    const fourth = await page.request.post(`/api/login/otp_verify?_seller=${otp.slug}`, {
      headers: { 'X-Ticketing-App': 'ecomm' },
      data: { token: mail.token, otp: mail.code },
    });
    expect(fourth.status()).toBe(401);

    const again = new Date();
    await dialog.getByRole('button', { name: 'Send a new passcode' }).click();
    const second = await readOtpMail(page.request, otp.name, again);
    expect(second.token).not.toBe(mail.token);
    await field(dialog, 'Passcode').fill(second.code);
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(dialog).toBeHidden();
    await expectGreeting(page);
  });

  test('otp_or_password: the password step, then the one-time link logs in and is removed from the address', async ({ page, context }) => {
    await page.goto(`/${otpOrPassword.slug}/login/callback`);
    await field(page, 'Email address').fill(DEMO_MEMBER.email);
    await page.getByRole('button', { name: 'Log in with password' }).click();
    await expect(page.getByText(`Logging in as ${DEMO_MEMBER.email}`)).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(field(page, 'Email address')).toHaveValue(DEMO_MEMBER.email);

    const since = new Date();
    await page.getByRole('button', { name: 'Email me a link and passcode' }).click();
    await expect(field(page, 'Passcode')).toBeVisible();
    const mail = await readOtpMail(page.request, otpOrPassword.name, since);
    expect(localPath(mail.link)).toMatch(new RegExp(`^/${otpOrPassword.slug}/login/callback\\?otp=`));

    const linkTab = await context.newPage();
    await linkTab.goto(localPath(mail.link));
    await expect(linkTab).toHaveURL(new RegExp(`/${otpOrPassword.slug}/events$`));
    await expectGreeting(linkTab);
    // The first tab notices the new session through the 1 s check.
    await expectGreeting(page);

    // The link works once.
    await linkTab.goto(`/${otpOrPassword.slug}/logout`);
    await expectLoggedOutHeader(linkTab);
    await linkTab.goto(localPath(mail.link));
    await expect(linkTab).not.toHaveURL(/otp=/);
    await expect(linkTab.getByRole('alert')).toContainText('The passcode you entered is invalid.');
    await expect(linkTab.getByRole('button', { name: 'Request a new link' })).toBeVisible();
  });
});

test.describe('member id modes', () => {
  test('scan_code: member id and ZIP (5 digits, tel)', async ({ page }) => {
    await page.goto(`/${scanCode.slug}/login/callback`);
    const zip = page.getByRole('textbox', { name: 'ZIP code' });
    await expect(zip).toHaveAttribute('type', 'tel');
    await expect(zip).toHaveAttribute('maxlength', '5');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Please fill out this field.')).toHaveCount(2);
    await field(page, 'Member ID').fill(DEMO_MEMBER.scanCode);
    await zip.fill('99999');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Member details not found. Please check your member ID and ZIP code.');
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'scan-code');
    await zip.fill(DEMO_MEMBER.zip);
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(new RegExp(`/${scanCode.slug}/events$`));
    await expectGreeting(page);
  });

  test('scan_code_last_name: member id and last name', async ({ page }) => {
    await page.goto(`/${scanCodeLastName.slug}/login/callback`);
    await field(page, 'Member ID').fill(` ${DEMO_MEMBER.scanCode} `);
    await field(page, 'Last name').fill('Smith');
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Member details not found. Please check your member ID and last name.');
    await field(page, 'Last name').fill(DEMO_MEMBER.lastName);
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expectGreeting(page);
  });
});

test.describe('modes without a form', () => {
  test("'none' shows 'Login is disabled' and no login link", async ({ page }) => {
    await page.goto(`/${none.slug}/login/callback`);
    await expect(page.getByRole('alert')).toHaveText('Login is disabled');
    await expect(page.getByRole('banner').getByRole('button', { name: 'Log in' })).toHaveCount(0);
  });

  test("hosted without its URL shows 'External login URL missing'", async ({ page }) => {
    await page.goto(`/${hosted.slug}/login/callback`);
    await expect(page.getByRole('alert')).toHaveText('External login URL missing');
  });
});

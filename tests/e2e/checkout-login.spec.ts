import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, firstSessionTomorrow, reserveThroughUi } from './helpers';
import { DEMO_MEMBER } from './login-sellers';
import { expectGreeting, shot } from './login-helpers';

test.describe('login during checkout', () => {
  test('a guest logs in at checkout: the cart stays, the identity form is hidden, and the member pays', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await reserveThroughUi(page, session, { adults: 2, children: 0 });
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByText('2 × Adult')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'First Name', exact: true })).toBeVisible();

    await expect(page.getByText('Already a member?')).toBeVisible();
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    // The login-or-guest dialog: 'Shop as a Guest' closes it and keeps the guest checkout.
    const dialog = page.getByRole('dialog', { name: 'Log in or shop as a guest' });
    await expect(dialog).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'login-or-guest', false);
    await dialog.getByRole('button', { name: 'Shop as a Guest' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'First Name', exact: true })).toBeVisible();
    await page.getByRole('main').getByRole('button', { name: 'Log in' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Email address' }).fill(DEMO_MEMBER.email);
    await dialog.getByLabel(/^Password/).fill(DEMO_MEMBER.password);
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(dialog).toBeHidden();
    await expectGreeting(page);

    // Spec section 4: the cart was fetched again and kept.
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(summary.getByText('2 × Adult')).toBeVisible();
    // The cart is the member's now: no guest details are asked.
    await expect(page.getByRole('textbox', { name: 'First Name', exact: true })).toHaveCount(0);
    await expect(page.getByText(`You are buying as ${DEMO_MEMBER.firstName}.`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'checkout-logged-in');

    await page.getByRole('textbox', { name: 'Card number', exact: true }).fill('4242 4242 4242 4242');
    await page.getByRole('textbox', { name: 'Expiry (MM/YY)' }).fill('12/34');
    await page.getByRole('textbox', { name: 'CVC' }).fill('123');
    const terms = page.getByLabel('I accept the terms and conditions');
    if (await terms.count()) await terms.check();
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();

    // The order is the member's.
    const orderId = new URL(page.url()).searchParams.get('orderIds')!.split(',')[0];
    const mine = await (await page.request.get('/api/my/ticket_order?_seller=demo')).json();
    expect(mine.ticket_order._data.map((o: { id: string }) => o.id)).toContain(orderId);
  });
});

import { expect, test, type Page } from '@playwright/test';
import { checkBothSizes, firstSessionTomorrow, reserveThroughUi } from './helpers';
import { CARD_SAVER, MEMBER_PASSWORD, MEMBERS_SELLER } from './membership-seller';

/**
 * Saved payment methods (issue 22) on 'e2e-members' (its own user, tests/e2e/membership-seller.ts), real server and
 * real Chromium with the test gateway: a logged-in shopper keeps the card at checkout, the second order is paid with
 * it without typing it (the choice made with the keyboard), and the account area removes it.
 */
const SELLER = MEMBERS_SELLER.slug;
const ECOMM = { 'X-Ticketing-App': 'ecomm' };
const at = (path: string) => `/${SELLER}${path}`;

async function reserve(page: Page) {
  const session = await firstSessionTomorrow(page.request, SELLER);
  await reserveThroughUi(page, session, { adults: 1, children: 0 }, at(`/events/${session.eventId}`));
}
async function pay(page: Page) {
  const terms = page.getByLabel('I accept the terms and conditions');
  if (await terms.count()) await terms.check();
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
}
const savedList = async (page: Page) =>
  (await (await page.request.get(`/api/my/identity/saved_payment_method?_seller=${SELLER}`)).json()).saved_payment_method._data;

test('a saved card pays the second order without typing it, and the account area removes it', async ({ page }) => {
  // Three checkouts and the account area, with axe and screenshots at two sizes: longer than one purchase.
  test.setTimeout(180_000);
  const login = await page.request.post(`/api/login?_seller=${SELLER}`, {
    headers: ECOMM,
    data: { username: CARD_SAVER.email, password: MEMBER_PASSWORD },
  });
  expect(login.status(), await login.text()).toBe(200);

  // First order: a new card, kept for next time.
  await reserve(page);
  await expect(page.getByRole('group', { name: 'Payment method' })).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Card number', exact: true }).fill('4242 4242 4242 4242');
  await page.getByRole('textbox', { name: 'Expiry (MM/YY)', exact: true }).fill('12/34');
  await page.getByRole('textbox', { name: 'CVC', exact: true }).fill('123');
  await page.getByRole('checkbox', { name: 'Save this card for next time' }).check();
  await pay(page);
  const saved = await savedList(page);
  expect(saved).toEqual([expect.objectContaining({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 })]);
  expect(JSON.stringify(saved)).not.toMatch(/tpm_|4242424242424242/);

  // Second order: the saved card comes first and is chosen; nothing is typed.
  await reserve(page);
  const choice = page.getByRole('group', { name: 'Payment method' });
  const visa = choice.getByRole('radio', { name: /Visa ending in 4242/ });
  await expect(visa).toBeChecked();
  await expect(choice.getByText('Expires 12/2034')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Card number', exact: true })).toHaveCount(0);
  // The keyboard moves between the choices: a new card shows the card form, back again hides it.
  await visa.focus();
  await page.keyboard.press('ArrowDown');
  await expect(choice.getByRole('radio', { name: 'Use a new card' })).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Card number', exact: true })).toBeVisible();
  await page.keyboard.press('ArrowUp');
  await expect(visa).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Card number', exact: true })).toHaveCount(0);
  await checkBothSizes(page, 'checkout-saved-card', '/tmp/shots/saved-cards');
  await pay(page);
  const orderId = new URL(page.url()).searchParams.get('orderIds')!.split(',')[0];
  const mine = await (await page.request.get(`/api/my/ticket_order?_seller=${SELLER}`)).json();
  expect(mine.ticket_order._data.map((o: { id: string }) => o.id)).toContain(orderId);

  // The account area lists it and removes it.
  await page.goto(at('/my/profile'));
  const section = page.getByRole('region', { name: 'Saved cards' });
  await expect(section.getByText('Visa ending in 4242')).toBeVisible();
  await checkBothSizes(page, 'profile-saved-cards', '/tmp/shots/saved-cards');
  await section.getByRole('button', { name: 'Remove Visa ending in 4242' }).click();
  await expect(section.getByRole('status')).toHaveText('Visa ending in 4242 was removed.');
  await expect(section.getByText('You have no saved cards.')).toBeVisible();
  expect(await savedList(page)).toEqual([]);
  await checkBothSizes(page, 'profile-no-saved-cards', '/tmp/shots/saved-cards');

  // The next checkout asks for a card again.
  await reserve(page);
  await expect(page.getByRole('group', { name: 'Payment method' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Card number', exact: true })).toBeVisible();
});

import { expect, test, type Browser, type Page } from '@playwright/test';
import { startFakeAddressProvider, type FakeAddressProvider } from '../helpers/fake-address';
import { startOwnServer } from './own-server';
import { checkBothSizes, fillCheckout, firstSessionTomorrow, reserveThroughUi } from './helpers';

/**
 * The checkout's address lookup in real Chromium (issue 22), by keyboard alone: type, hear how many were found, open a
 * building, pick a flat with the arrows and Enter, see the fields filled and Line1 left in the box, and pay. Then the
 * provider fails (manual entry, said so), and a search typed but never picked (a field error). The server runs with a
 * provider of Loqate's shape that this test starts (tests/helpers/fake-address.ts), like the Stripe spec's own server;
 * the suite's server has no provider, so its checkout shows no lookup.
 */
let server: { baseURL: string; stop: () => void } | null = null;
let provider: FakeAddressProvider | null = null;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  provider = await startFakeAddressProvider();
  server = await startOwnServer('address', { ADDRESS_LOOKUP_URL: provider.url, ADDRESS_LOOKUP_KEY: provider.key });
});
test.afterAll(async () => {
  server?.stop();
  await provider?.close();
});
test.beforeEach(() => {
  provider!.mode = 'ok';
});

async function checkout(browser: Browser) {
  const context = await browser.newContext({ baseURL: server!.baseURL, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await reserveThroughUi(page, await firstSessionTomorrow(context.request), { adults: 1, children: 0 });
  return { context, page };
}

const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const search = (page: Page) => page.getByRole('combobox', { name: 'Find your address' });
/** The country chosen (its name: @rjsf's select keeps option indexes as values). */
const country = (page: Page) => page.getByRole('combobox', { name: 'Country' }).locator('option:checked');
const live = (page: Page) => page.locator('.address-lookup [role="status"]');

/** From the phone field, Tab into the search box and type as a person does, a key at a time. */
async function typeSearch(page: Page, text: string) {
  // The lookup comes in a chunk of its own, after the form.
  await expect(search(page)).toBeVisible();
  await field(page, 'Phone').focus();
  await page.keyboard.press('Tab');
  await expect(search(page)).toBeFocused();
  await page.keyboard.type(text, { delay: 60 });
  // Not one key lost (a controlled box fed back through the form lagged a key behind).
  await expect(search(page)).toHaveValue(text);
}

test('an address is found and picked by keyboard alone, fills the form, and the order goes through', async ({ browser }) => {
  const { context, page } = await checkout(browser);
  const box = search(page);
  await expect(box).toHaveAttribute('aria-expanded', 'false');

  // Three characters ask nothing; the fourth searches, once, 300 ms after the last key.
  const before = provider!.requests.length;
  await typeSearch(page, 'Riv');
  await page.waitForTimeout(600);
  expect(provider!.requests.length).toBe(before);
  await page.keyboard.type('erside', { delay: 60 });
  await expect(live(page)).toHaveText('1 address found. Use the up and down arrows to choose.');
  expect(provider!.requests.slice(before).map((r) => r.params.Text)).toEqual(['Riverside']);
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('Riverside House, 2 Thames Walk');

  await checkBothSizes(page, 'address-lookup-suggestions');
  await box.focus();

  // The building opens into its flats.
  await page.keyboard.press('ArrowDown');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(live(page)).toHaveText('3 addresses found. Use the up and down arrows to choose.');
  await expect(options).toHaveText([/^Flat 1, Riverside House/, /^Flat 2, Riverside House/, /^Flat 3, Riverside House/]);
  await expect(box).toBeFocused();

  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
  await page.keyboard.press('Enter');

  await expect(live(page)).toHaveText('Address filled in: Flat 2, Riverside House, 2 Thames Walk, London, SE1 9PH.');
  await expect(box).toHaveValue('Flat 2');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
  await expect(field(page, 'Address')).toHaveValue('Flat 2');
  await expect(field(page, 'Address Line 2')).toHaveValue('Riverside House, 2 Thames Walk');
  await expect(field(page, 'City')).toHaveValue('London');
  await expect(field(page, 'State / Province')).toHaveValue('');
  await expect(field(page, 'Zip or Post Code')).toHaveValue('SE1 9PH');
  await expect(country(page)).toHaveText('United Kingdom');
  await checkBothSizes(page, 'address-lookup-filled');

  // The rest of the form, and the order goes through with the address.
  await fillCheckout(page, '4242 4242 4242 4242');
  await expect(box).toHaveValue('Flat 2');
  const posted = page.waitForRequest((r) => r.method() === 'POST' && /\/api\/user\b/.test(r.url()));
  await page.getByRole('button', { name: 'Pay now' }).focus();
  await page.keyboard.press('Enter');
  expect((await posted).postDataJSON()).toMatchObject({
    address: 'Flat 2',
    address_more: 'Riverside House, 2 Thames Walk',
    city: 'London',
    zip_code: 'SE1 9PH',
    country: 'GB',
  });
  expect((await posted).postDataJSON()).not.toHaveProperty('address_search');
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible({ timeout: 20_000 });
  await context.close();
});

test('a US address brings its state code; a provider error switches to manual entry and says so', async ({ browser }) => {
  const { context, page } = await checkout(browser);
  await typeSearch(page, '350 fifth');
  await expect(live(page)).toHaveText('1 address found. Use the up and down arrows to choose.');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(field(page, 'State / Province')).toHaveValue('NY');
  await expect(field(page, 'Zip or Post Code')).toHaveValue('10118');
  await expect(country(page)).toHaveText('United States');
  await expect(search(page)).toHaveValue('350 Fifth Avenue');

  provider!.mode = 'refuse';
  await search(page).focus();
  await page.keyboard.press('End');
  await page.keyboard.type(' x', { delay: 60 });
  const manual = 'The address lookup is not available just now. Please enter your address below.';
  await expect(live(page)).toHaveText(manual);
  await expect(page.getByText(manual, { exact: true }).first()).toBeVisible();
  await expect(search(page)).toHaveCount(0);
  // The address field takes the focus; what was filled stays, and the visitor types on.
  await expect(field(page, 'Address')).toBeFocused();
  await expect(field(page, 'Address')).toHaveValue('350 Fifth Avenue');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('20 W 34th St');
  for (const words of Object.values(provider!.refusal)) if (words.length > 2) await expect(page.getByText(words)).toHaveCount(0);
  await checkBothSizes(page, 'address-lookup-manual');

  // The postcode and state rules hold by hand too.
  await field(page, 'Zip or Post Code').fill('1011');
  await field(page, 'State / Province').fill('');
  await fillCheckout(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page.getByText('Please enter a 5-digit ZIP code.')).toBeVisible();
  await expect(page.getByText('Please enter the state or province.')).toBeVisible();
  await context.close();
});

test('a search typed but never picked, with the address left empty, is a field error', async ({ browser }) => {
  const { context, page } = await checkout(browser);
  await typeSearch(page, 'nowhere at all');
  await expect(live(page)).toHaveText('No address found. Type more, or enter it below.');
  await fillCheckout(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay now' }).click();
  const error = 'Please choose your address from the list, or enter it below.';
  await expect(page.getByText(error)).toBeVisible();
  await expect(search(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(search(page)).toHaveAccessibleDescription(new RegExp(error.replace(/[.]/g, '\\.')));
  await checkBothSizes(page, 'address-lookup-not-picked');

  // Typing the address by hand clears it.
  await field(page, 'Address').fill('1 Nowhere Lane');
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible({ timeout: 20_000 });
  await context.close();
});

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { checkBothSizes, expectNoSeriousA11yViolations, firstSessionTomorrow, reserveThroughApi } from './helpers';
import { LAYOUT_SELLER } from './setup-sellers-constants';

/**
 * Issue 18, the layout registry: a seller reshapes the running storefront purely through its folder (config.json,
 * strings.json, content-blocks/), which the server watches (SELLER_WATCH_DIRS). 'e2e-layout' is a demo copy kept in
 * E2E_LAYOUT_DIR (tests/e2e/setup-sellers.ts); its member is the demo's.
 */
const dir = () => process.env.E2E_LAYOUT_DIR!;
const MEMBER = { email: 'member@example.com', password: 'MuseumDemo2026!' };
const ECOMM = { 'X-Ticketing-App': 'ecomm' };
const original = { config: '', strings: '' };

function editConfig(edit: (config: Record<string, any>) => void) {
  const file = path.join(dir(), 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
  edit(config);
  writeFileSync(file, JSON.stringify(config, null, 2));
}

/** The storefront config as the server answers it now (the watcher applies a change within a quarter second). */
async function waitForServer(page: Page, check: (storefront: Record<string, any>) => boolean) {
  await expect
    .poll(async () => {
      const body = await (await page.request.get(`/api/config?key._in=storefront&_seller=${LAYOUT_SELLER}`)).json();
      return check(body.config._data[0].value);
    })
    .toBe(true);
}

/** The checkout's main column: section headings in the order the page shows them. */
const checkoutOrder = (page: Page) =>
  page
    .locator('.checkout-page__main')
    .evaluate((main) =>
      [...main.querySelectorAll('h2, legend.card-form__legend')].map((el) => el.textContent?.replace(/\s+/g, ' ').trim()),
    );

test.describe.configure({ mode: 'serial' });

test.describe('screen layouts from the seller folder', () => {
  test.beforeAll(() => {
    original.config = readFileSync(path.join(dir(), 'config.json'), 'utf8');
    original.strings = readFileSync(path.join(dir(), 'strings.json'), 'utf8');
  });
  test.afterAll(() => {
    writeFileSync(path.join(dir(), 'config.json'), original.config);
    writeFileSync(path.join(dir(), 'strings.json'), original.strings);
  });

  test('a seller moves the donation above the payment and adds a members-only block to the events page, by config alone', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const session = await firstSessionTomorrow(page.request, LAYOUT_SELLER);
    const cartId = await reserveThroughApi(page, LAYOUT_SELLER, session.sessionId, [session.types.Adult], {
      [session.groups.Adult]: { zip_code: '10024' },
    });

    // The registry's own order: the donation offer comes after the card.
    await page.goto(`/${LAYOUT_SELLER}/checkout/${cartId}`);
    await expect(page.getByRole('heading', { name: 'Add a donation' })).toBeVisible();
    // the checkout's upsell (checkout_upsell_id, issue 16) of the admission's visit comes before the donation
    await expect(page.getByRole('heading', { name: 'Add to your visit' })).toBeVisible();
    expect(await checkoutOrder(page)).toEqual(['Your details', 'Card details TEST MODE', 'Add to your visit', 'Add a donation']);

    // The seller edits the folder: the donation above the payment, a block for members on the events page, a string.
    writeFileSync(
      path.join(dir(), 'content-blocks', 'curator-late.html'),
      '---\nslot: top\nroutes: events\nroles: member\n---\n<h2>Members: Curator Late is on Thursday</h2>\n<p>Book your free place below.</p>\n',
    );
    writeFileSync(path.join(dir(), 'strings.json'), JSON.stringify({ 'checkout.donation.title': 'Support the museum' }));
    editConfig((config) => {
      config.layout = {
        ...config.layout,
        checkout: ['purchaser', 'donation', 'payment', 'terms', 'submit'],
        events: { member: ['block:curator-late', 'heading', 'upsell-heading', 'filters', 'results'] },
      };
    });
    await waitForServer(page, (s) => s.layout?.checkout?.[1] === 'donation');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Support the museum' })).toBeVisible();
    expect(await checkoutOrder(page)).toEqual(['Your details', 'Support the museum', 'Card details TEST MODE']);

    // The donation itself: an amount of one's own out of range is refused on the page, a preset goes in the cart.
    const donation = page.getByRole('group', { name: 'Would you like to support the museum with a gift?' });
    await donation.getByRole('radio', { name: 'Other amount' }).check();
    await donation.getByRole('textbox', { name: /Your amount/ }).fill('2');
    await donation.getByRole('button', { name: 'Add donation' }).click();
    await expect(donation.getByRole('alert')).toHaveText('Please enter an amount from $5.00 to $5,000.00.');
    await donation.getByRole('radio', { name: '$25.00' }).check();
    await donation.getByRole('button', { name: 'Add donation' }).click();
    await expect(page.getByText('Thank you! Your donation of $25.00 is in your order.')).toBeVisible();
    const cart = await (await page.request.get(`/api/cart/${cartId}?_seller=${LAYOUT_SELLER}`)).json();
    const lines = cart.cart._data[0].items.flatMap(
      (item: { types: Array<{ ticket_type_name: string; totalPrice: string }> }) => item.types,
    );
    expect(lines).toContainEqual(expect.objectContaining({ ticket_type_name: 'Donation', totalPrice: '25.00' }));
    await expectNoSeriousA11yViolations(page);
    await checkBothSizes(page, 'layout-checkout-donation-first');

    // Anonymous visitors do not see the members' block; the member, logged in, sees it first on the page.
    await page.goto(`/${LAYOUT_SELLER}/events`);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose your events' })).toBeVisible();
    await expect(page.getByText('Members: Curator Late is on Thursday')).toHaveCount(0);
    const login = await page.request.post(`/api/login?_seller=${LAYOUT_SELLER}`, {
      headers: ECOMM,
      data: { username: MEMBER.email, password: MEMBER.password },
    });
    expect(login.status(), await login.text()).toBe(200);
    await page.reload();
    const block = page.locator('.content-block--curator-late');
    await expect(block.getByRole('heading', { name: 'Members: Curator Late is on Thursday' })).toBeVisible();
    const firstOnPage = await page.locator('.events-page__main > *').first().getAttribute('class');
    expect(firstOnPage ?? '').toContain('content-block');
    await checkBothSizes(page, 'layout-events-member-block');

    // Inside the reservation flow: the CityPASS codes before the survey, and the seller's visit rules just above
    // 'Add to cart' (and nowhere else on the page).
    writeFileSync(
      path.join(dir(), 'content-blocks', 'visit-rules.html'),
      '---\nslot: top\nroutes: event-detail\nroles: anonymous, logged_in, member\n---\n<p>Bags larger than 40 cm go to the cloakroom.</p>\n',
    );
    editConfig((config) => {
      config.layout = {
        ...config.layout,
        reservation: [
          'admission',
          'dates',
          'sessions',
          'quantities',
          'citypass',
          'survey',
          'admit',
          'seats',
          'block:visit-rules',
          'submit',
        ],
      };
    });
    await waitForServer(page, (s) => Array.isArray(s.layout?.reservation));
    await page.goto(`/${LAYOUT_SELLER}/events/${session.eventId}`);
    const rules = page.locator('.reserve .content-block--visit-rules');
    await expect(rules).toHaveText('Bags larger than 40 cm go to the cloakroom.');
    await expect(page.getByText('Bags larger than 40 cm go to the cloakroom.')).toHaveCount(1);
    const next = await rules.evaluate((el) => el.nextElementSibling?.textContent ?? '');
    expect(next).toContain('Add to cart');
  });

  test('a layout the loader would refuse changes nothing on the running storefront', async ({ page }) => {
    editConfig((config) => {
      config.layout = { checkout: ['purchaser', 'paymnet', 'submit'] };
    });
    // Give the watcher time to see the file, then the last valid layout still stands.
    await page.waitForTimeout(1000);
    const body = await (await page.request.get(`/api/config?key._in=storefront&_seller=${LAYOUT_SELLER}`)).json();
    expect(body.config._data[0].value.layout.checkout).toEqual(['purchaser', 'donation', 'payment', 'terms', 'submit']);
  });
});

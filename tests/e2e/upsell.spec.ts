import { expect, test, type Page } from '@playwright/test';
import {
  addCountsThroughUi,
  checkBothSizes,
  expectNoA11yViolations,
  expectNoSeriousA11yViolations,
  fillCheckout,
  firstSessionTomorrow,
  pickSessionOnPage,
  sessionLabels,
  skipUpsells,
  apiEvents,
} from './helpers';

const UPSELL_HEADING = 'What other experiences would you like to add?';

/** Keyboard focus is on the page's main heading (document.activeElement), as after every step of a purchase. */
async function expectFocusOnHeading(page: Page, name: string) {
  await expect
    .poll(() => page.evaluate(() => ({ tag: document.activeElement?.tagName, text: document.activeElement?.textContent?.trim() })))
    .toEqual({ tag: 'H1', text: name });
}

test.describe('upsell chain (issue 16)', () => {
  test('admission, then its add-ons: one skipped by the banner, one taken with matching tickets, on to checkout and its upsell', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const session = await firstSessionTomorrow(page.request);
    const { date } = sessionLabels(session);

    await page.goto('/events');
    await page.getByRole('link', { name: 'View event: General Admission' }).click();
    await expectFocusOnHeading(page, 'General Admission');
    await pickSessionOnPage(page, session);
    await addCountsThroughUi(page, { adults: 2, children: 1 });

    // The chain's listing: the add-ons of tomorrow's visit, and a way past them.
    await expect(page).toHaveURL(/\/events$/);
    await expectFocusOnHeading(page, UPSELL_HEADING);
    await expect(page.getByText(/^For your visit on \w+day, \w+ \d+, \d{4}: General Admission at \d{1,2}:\d{2} (AM|PM)$/)).toBeVisible();
    const ocean = page.getByRole('link', { name: /^View event: Ocean Light/ });
    const talk = page.getByRole('link', { name: /^View event: Free Gallery Talk/ });
    await expect(ocean).toBeVisible();
    await expect(talk).toBeVisible();
    await expect(page.getByRole('link', { name: 'View event: General Admission' })).toHaveCount(0);
    await checkBothSizes(page, 'upsell-listing');
    await expectNoA11yViolations(page);
    // A reload keeps the chain: the page opens on its listing again, not on the ordinary one.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: UPSELL_HEADING })).toBeVisible();
    await expect(ocean).toBeVisible();

    // Ocean Light, offered by the banner, skipped.
    await ocean.click();
    await expectFocusOnHeading(page, 'Ocean Light: Creatures of the Deep');
    const banner = page.getByRole('complementary', { name: 'Add to your visit' });
    await expect(banner).toContainText('General Admission');
    // only the visit's date (same_date), chosen at once
    await expect(page.locator('.date-picker__buttons .date-button:not(.date-button--more)')).toHaveCount(1);
    await expect(page.getByRole('button', { name: new RegExp(`^${date}\\b`) }).first()).toHaveAttribute('aria-pressed', 'true');
    await checkBothSizes(page, 'upsell-banner');
    await expectNoA11yViolations(page);
    await banner.getByRole('link', { name: /^Skip this experience/ }).click();
    await expect(page).toHaveURL(/\/events$/);
    await expectFocusOnHeading(page, UPSELL_HEADING);
    await expect(ocean).toHaveCount(0);

    // The gallery talk, taken: its tickets must match the admission's 3.
    await talk.click();
    await expectFocusOnHeading(page, 'Free Gallery Talk: Objects in Focus');
    await expect(page.getByRole('complementary', { name: 'Add to your visit' })).toBeVisible();
    await page
      .getByRole('region', { name: 'Choose a time' })
      .getByRole('button', { name: /^1:00\sPM/ })
      .click();
    await expect(page.getByLabel('Free place: 3 selected')).toHaveText('3');
    await expect(page.getByText('Choose 3 tickets, one for each ticket of your visit.')).toBeVisible();
    await page.getByRole('button', { name: 'Remove one Free place' }).click();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please choose 3 tickets, one for each ticket of your visit.');
    await page.getByRole('button', { name: 'Add one Free place' }).click();
    await page.getByRole('button', { name: 'Add to cart' }).click();

    // Back to the chain; whatever else tomorrow offers is skipped (on a Monday nothing is left, and checkout follows).
    const skipAll = page.getByRole('link', { name: 'No thanks, continue to checkout' });
    await expect(page.getByRole('heading', { level: 1, name: 'Payment information' }).or(skipAll)).toBeVisible();
    if (await skipAll.isVisible()) {
      await expectFocusOnHeading(page, UPSELL_HEADING);
      await expect(talk).toHaveCount(0);
      await skipAll.click();
    }
    await expect(page).toHaveURL(/\/checkout$/);
    await expectFocusOnHeading(page, 'Payment information');
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByText('2 × Adult')).toBeVisible();
    await expect(summary.getByText('3 × Free place')).toBeVisible();

    // The checkout's own upsell (checkout_upsell_id): Ocean Light, fitted to the visit, then back to checkout.
    const offer = page.getByRole('region', { name: 'Add to your visit' });
    await expect(offer).toContainText('Ocean Light: Creatures of the Deep');
    await checkBothSizes(page, 'upsell-checkout');
    await offer.getByRole('link', { name: 'Add Ocean Light: Creatures of the Deep' }).click();
    await expectFocusOnHeading(page, 'Ocean Light: Creatures of the Deep');
    await expect(page.getByRole('complementary', { name: 'Add to your visit' })).toHaveCount(0);
    const times = page.getByRole('region', { name: 'Choose a time' });
    // the talk's hour overlaps (conflict avoidance); 10:00 does not
    await expect(times.getByRole('button', { name: /^1:00\sPM/ })).toBeDisabled();
    await times.getByRole('button', { name: /^10:00\sAM/ }).click();
    await expect(page.getByLabel('Adult: 2 selected')).toHaveText('2');
    await expect(page.getByLabel('Child: 1 selected')).toHaveText('1');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expectFocusOnHeading(page, 'Payment information');
    await expect(summary.getByText('Ocean Light: Creatures of the Deep')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Add to your visit' })).toHaveCount(0);

    // Paid: the confirmation's heading has the focus, and the chain went with the cart.
    await fillCheckout(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect(page).toHaveURL(/\/checkout\/complete\?orderIds=/);
    await expectFocusOnHeading(page, 'Thank you for your order');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('storefront.upsellsChain.')))).toEqual([]);
  });

  test("'Add an admission event first' before an add-on; a count the server refuses (the visit grew in another tab) is said in the page", async ({
    page,
    request,
  }) => {
    const ocean = (await apiEvents(request)).find((e) => e.name.startsWith('Ocean Light'))!;
    await page.goto(`/events/${ocean.id}`);
    const warning = page.locator('.reserve__anchor-first');
    await expect(warning).toHaveText('Add an admission event first. Choose your admission');
    await page.locator('.date-picker__buttons .date-button:not(.date-button--more)').first().click();
    await page.getByRole('region', { name: 'Choose a time' }).getByRole('button').and(page.locator(':not([disabled])')).first().click();
    await page.getByRole('button', { name: 'Add one Adult', exact: true }).click();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('alert')).toHaveText('Add an admission event first.');
    await expectNoSeriousA11yViolations(page);
    await warning.getByRole('link', { name: 'Choose your admission' }).click();
    await expectFocusOnHeading(page, 'General Admission');

    const session = await firstSessionTomorrow(page.request);
    await pickSessionOnPage(page, session);
    await addCountsThroughUi(page, { adults: 1, children: 0 });
    await expectFocusOnHeading(page, UPSELL_HEADING);
    await page.getByRole('link', { name: /^View event: Free Gallery Talk/ }).click();
    await page
      .getByRole('region', { name: 'Choose a time' })
      .getByRole('button', { name: /^1:00\sPM/ })
      .click();
    await expect(page.getByLabel('Free place: 1 selected')).toHaveText('1');
    // Another tab adds one more admission to the same cart: the page still counts 1, the server counts 2.
    const cartId = await page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith('storefront.cart.'))?.[1]);
    const grown = await page.request.post(`/api/cart/${cartId}/modify?_seller=demo`, {
      headers: { 'X-Ticketing-App': 'ecomm' },
      data: { add: [{ ticket_type_id: session.types.Adult, event_session_id: session.sessionId }] },
    });
    expect(grown.status()).toBe(200);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please choose 2 tickets, one for each ticket of your visit.');
    await expect(page).toHaveURL(/\/events\/[^/]+$/);

    // The refusal reads the cart again: the page now counts the visit's 2 tickets.
    await expect(page.locator('.reserve__must-match')).toHaveText('Choose 2 tickets, one for each ticket of your visit.');

    // Removing the admission the talk depends on asks first and says everything goes, then clears the cart and the chain.
    await page.getByRole('button', { name: 'Add one Free place' }).click();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await skipUpsells(page);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByText('2 × Free place')).toBeVisible();
    await summary.getByRole('button', { name: 'Remove General Admission from your cart' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove from cart?' });
    await expect(dialog).toContainText(
      'Other items in your cart depend on General Admission. Removing it will clear everything in your cart.',
    );
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toHaveCount(0);
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => /^storefront\.(cart|upsellsChain|visitWindow)\./.test(k))),
    ).toEqual([]);
  });
});

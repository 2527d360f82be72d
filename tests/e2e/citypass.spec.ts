import { expect, test } from '@playwright/test';
import { checkBothSizes, chooseSessionThroughUi, firstSessionTomorrow, skipUpsells } from './helpers';

/** CityPASS (issue 18): the demo's General Admission takes CityPASS codes, CPA + 8 digits for adults, CPC for children. */
const digits = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');

test('a visitor reserves entry with two CityPASS codes; the form says what is wrong; a used code is refused by name', async ({
  page,
  browser,
}) => {
  const adultCode = `CPA${digits()}`;
  const childCode = `CPC${digits()}`;
  const session = await firstSessionTomorrow(page.request);
  await chooseSessionThroughUi(page, session);
  await page.getByRole('button', { name: 'Add one CityPASS Adult', exact: true }).click();
  await page.getByRole('button', { name: 'Add one CityPASS Child', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your CityPASS codes' })).toBeVisible();
  const adult = page.getByRole('textbox', { name: 'CityPASS Adult ticket 1' });
  const child = page.getByRole('textbox', { name: 'CityPASS Child ticket 1' });
  await expect(adult).toHaveAccessibleDescription('Enter the code printed on each CityPASS, one per ticket.');

  // Nothing typed: each field says so, and nothing is sent.
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('Please enter your CityPASS code.')).toHaveCount(2);
  await expect(adult).toHaveAttribute('aria-invalid', 'true');
  // A child's code on the adult ticket is not of the adult form (spec section 8's text).
  await adult.fill(childCode);
  await child.fill(childCode.toLowerCase());
  await expect(adult).toHaveAccessibleDescription(/Does not match the expected format\. Please check your CityPASS code\./);
  await expect(child).not.toHaveAttribute('aria-invalid');
  // Typed as printed, with a space and a hyphen: the same code.
  await adult.fill(`${adultCode.slice(0, 3)} ${adultCode.slice(3, 7)}-${adultCode.slice(7)}`);
  await checkBothSizes(page, 'citypass-codes');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await skipUpsells(page);
  // The order summary lists both free CityPASS entries.
  const summary = page.getByRole('region', { name: 'Order summary' });
  await expect(summary.locator('.cart-item__type').filter({ hasText: 'CityPASS Adult' })).toHaveText(/1 × CityPASS Adult\s*\$0\.00/);
  await expect(summary.locator('.cart-item__type').filter({ hasText: 'CityPASS Child' })).toHaveText(/1 × CityPASS Child\s*\$0\.00/);
  await expect(summary).toContainText(`CityPASS: ${adultCode}, ${childCode}`);

  // Another visitor with the same adult code: refused, naming it; nothing of the change is kept.
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const second = await other.newPage();
  await chooseSessionThroughUi(second, session);
  await second.getByRole('button', { name: 'Add one CityPASS Adult', exact: true }).click();
  await second.getByRole('textbox', { name: 'CityPASS Adult ticket 1' }).fill(adultCode);
  await second.getByRole('button', { name: 'Add to cart' }).click();
  await expect(second.getByText(`The CityPASS code ${adultCode} has already been used.`)).toBeVisible();
  await expect(second).toHaveURL(new RegExp(`/events/${session.eventId}`));
  await other.close();
});

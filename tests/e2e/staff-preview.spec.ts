import { expect, test, type Page } from '@playwright/test';
import { checkBothSizes, expectNoSeriousA11yViolations, firstSessionTomorrow } from './helpers';

/**
 * Issue 18, staff preview, on the demo seller (its staff.json: staff@example.com). A member of staff logs in at /_staff,
 * then looks at the storefront as a member and as an anonymous visitor through the preview bar: the same pages, the
 * same API, answered as for that visitor; nothing can be bought.
 */
const STAFF = { email: 'staff@example.com', password: 'StaffDemo2026!' };
const CURATOR = "View event: Members' Evening: Curator Late";

async function previewAs(page: Page, role: string, level?: string) {
  const bar = page.getByRole('complementary', { name: 'Staff preview' });
  await bar.getByRole('combobox', { name: 'View the storefront as' }).selectOption({ label: role });
  if (level) {
    const levels = bar.getByRole('combobox', { name: 'Membership level' });
    await expect(levels.getByRole('option')).toHaveText(['The first level', 'Individual', 'Dual', 'Family']);
    await levels.selectOption({ label: level });
  }
  await Promise.all([page.waitForEvent('load'), bar.getByRole('button', { name: 'Show' }).click()]);
  await expect(page.getByRole('complementary', { name: 'Staff preview' }).getByRole('status')).toContainText(`Previewing as ${role}`);
}

test('a member of staff previews the events page as a member (Curator Late shows) and as a visitor (it does not), buying nothing', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // A shopper sees no preview bar, and never downloads it.
  await page.goto('/events');
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your events' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Staff preview' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: CURATOR })).toHaveCount(0);

  await page.goto('/_staff');
  await page.getByLabel('Staff e-mail').fill(STAFF.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Log in as staff' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('That e-mail and password do not match a member of staff.');
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Log in as staff' }).click();
  const bar = page.getByRole('complementary', { name: 'Staff preview' });
  await expect(bar).toContainText('Staff: Sam Support');
  await expectNoSeriousA11yViolations(page);

  await previewAs(page, 'A current member', 'Family');
  // The API answers for a Family member.
  const membership = await (await page.request.get('/api/my/membership?_embed=role')).json();
  expect(membership.role._data.map((r: { name: string }) => r.name)).toEqual(['Family']);
  await page.goto('/events');
  await expect(page.getByRole('link', { name: CURATOR })).toBeVisible();
  // The header greets the previewed member, as it would greet a real one.
  await expect(page.getByRole('banner')).toContainText('Preview');
  await checkBothSizes(page, 'staff-preview-member');

  // Nothing is bought in preview: the API refuses the cart itself.
  const session = await firstSessionTomorrow(page.request);
  const refused = await page.request.post('/api/cart/modify', {
    headers: { 'X-Ticketing-App': 'ecomm' },
    data: { add: [{ event_session_id: session.sessionId, ticket_type_id: session.types.Adult }], channel_id: 'web' },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json())._data[0]._code).toBe('preview_read_only');

  await previewAs(page, 'A visitor (not logged in)');
  await page.goto('/events');
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your events' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^View event: General Admission/ })).toBeVisible();
  await expect(page.getByRole('link', { name: CURATOR })).toHaveCount(0);

  // Ending the preview and logging out leaves an ordinary visitor's page.
  await Promise.all([page.waitForEvent('load'), bar.getByRole('button', { name: 'End preview' }).click()]);
  await Promise.all([page.waitForEvent('load'), bar.getByRole('button', { name: 'Log out of staff' }).click()]);
  await expect(page.getByRole('complementary', { name: 'Staff preview' })).toHaveCount(0);
});

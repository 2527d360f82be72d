import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { plusDays } from '../helpers/instants';
import {
  apiEvents,
  chooseSessionThroughUi,
  expectNoSeriousA11yViolations,
  firstSessionTomorrow,
  otherBuyersTake,
  reserveThroughApi,
  reserveThroughUi,
  sessionLabels,
  skipUpsells,
  venueDatePlus,
} from './helpers';

const SHOTS = '/tmp/shots';

/** The venue date ('YYYY-MM-DD') a calendar day's label names: 'Tuesday, December 1, 2026, Available, ...'. */
function labelDate(label: string): string {
  const [, month, day, year] = /^\w+, (\w+) (\d{1,2}), (\d{4})/.exec(label)!;
  const m =
    ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'].indexOf(
      month,
    ) + 1;
  return `${year}-${String(m).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** The demo's General Admission: date-first, sessions every 30 minutes, Timed Admission max 20 per order. */
async function openGeneralAdmission(page: Page, request: Parameters<typeof apiEvents>[0]) {
  const events = await apiEvents(request);
  const ga = events.find((e) => e.name === 'General Admission');
  expect(ga, 'demo seller has General Admission').toBeTruthy();
  await page.goto(`/events/${ga!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'General Admission' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Choose your admission' })).toBeVisible();
  return ga!;
}

async function chooseSingleDate(page: Page) {
  await page.getByRole('radio', { name: /Visit on a specific date/ }).check();
  await expect(page.getByRole('button', { name: 'More dates' })).toBeVisible();
}

/** The second date button (tomorrow or later, so every session of the day is still ahead). */
async function chooseSecondDate(page: Page) {
  const dates = page.locator('.date-picker__buttons .date-button:not(.date-button--more)');
  await dates.nth(1).click();
  await expect(page.locator('.session-button').first()).toBeVisible();
}

test.describe('event detail, date-first flow', () => {
  test('shows up to 8 date buttons named by day, and sessions with times for a chosen date', async ({ page, request }) => {
    await openGeneralAdmission(page, request);
    await chooseSingleDate(page);
    const dates = page.locator('.date-picker__buttons .date-button:not(.date-button--more)');
    expect(await dates.count()).toBeGreaterThan(1);
    expect(await dates.count()).toBeLessThanOrEqual(8);
    await expect(dates.first()).toHaveAccessibleName(/^(Sun|Mon|Tue|Wed|Thu|Fri|Sat), [A-Z][a-z]{2} \d{1,2}\b/);
    await chooseSecondDate(page);
    // Tabs from config: Morning holds the 9:00 AM entry; every session button starts with its time.
    await expect(page.getByRole('tab', { name: /Morning/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('button', { name: /^9:00 AM/ })).toBeVisible();
    await page.getByRole('tab', { name: /Afternoon/ }).click();
    await expect(page.getByRole('button', { name: /^1:00 PM/ })).toBeVisible();
  });

  test('the calendar modal works by keyboard alone', async ({ page, request }) => {
    await openGeneralAdmission(page, request);
    await chooseSingleDate(page);
    await page.getByRole('button', { name: 'More dates' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Choose a date' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('grid')).toBeVisible();
    expect(await dialog.getByRole('row').count()).toBe(7); // header + 6 weeks
    // Focus lands on the first available day (today); ArrowDown moves a week, ArrowRight a day.
    // The day buttons are named by the calendar row's ariaLabel (visually hidden text inside the button).
    const focusedLabel = () => page.evaluate(() => document.activeElement?.querySelector('.visually-hidden')?.textContent ?? '');
    await expect.poll(focusedLabel).toMatch(/Available/);
    const before = await focusedLabel();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const after = await focusedLabel();
    expect(after).not.toBe(before);
    expect(after).toMatch(/Available/);
    // +7 then +1 days on the venue's calendar, with the real length of the month the days are in.
    expect(labelDate(after)).toBe(plusDays(labelDate(before), 8));
    await expect(page.getByRole('gridcell').getByRole('button', { name: after, exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    // The chosen date's sessions load.
    await expect(page.locator('.session-button').first()).toBeVisible();
    await expect(page.locator('.session-button').first()).toHaveAccessibleName(/^\d{1,2}:\d{2} (AM|PM)/);
  });

  test('steppers follow the quantity rules and the guard messages explain what is missing', async ({ page, request }) => {
    await openGeneralAdmission(page, request);
    const submit = page.getByRole('button', { name: 'Add to cart' });
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Please select an admission type to continue.');
    await chooseSingleDate(page);
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Please select a date to continue.');
    const dates = page.locator('.date-picker__buttons .date-button:not(.date-button--more)');
    await dates.nth(1).click();
    await expect(page.locator('.session-button').first()).toBeVisible();
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Please select a session to continue.');
    await page.getByRole('button', { name: /^10:00 AM/ }).click();
    const addAdult = page.getByRole('button', { name: 'Add one Adult' });
    await expect(addAdult).toBeEnabled();
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Please select at least one ticket to continue.');

    // Nothing to remove at 0; Timed Admission allows 20 per order across its types.
    await expect(page.getByRole('button', { name: 'Remove one Adult' })).toBeDisabled();
    for (let i = 0; i < 15; i++) await addAdult.click();
    const addChild = page.getByRole('button', { name: 'Add one Child' });
    for (let i = 0; i < 5; i++) await addChild.click();
    await expect(page.getByLabel('Adult: 15 selected')).toHaveText('15');
    await expect(page.getByLabel('Child: 5 selected')).toHaveText('5');
    await expect(addAdult).toBeDisabled();
    await expect(addChild).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Add one Senior' })).toBeDisabled();
    await page.getByRole('button', { name: 'Remove one Child' }).click();
    await expect(page.getByRole('button', { name: 'Add one Senior' })).toBeEnabled();
    // Names are optional for this group: one 'Full Name' per ticket, except that the demo's ticket rule for
    // Adult (named 'optional', max 10) offers names for 10 of the 15 adults: 10 + 4 children.
    await expect(page.getByRole('textbox', { name: /Full Name/ })).toHaveCount(14);
    await expect(page.getByLabel(/Home ZIP or postal code/)).toBeVisible();
  });

  test('flexible admission clears the date and shows the any-day passes', async ({ page, request }) => {
    await openGeneralAdmission(page, request);
    await chooseSingleDate(page);
    await chooseSecondDate(page);
    await page.getByRole('radio', { name: /Flexible admission/ }).check();
    await expect(page.getByRole('button', { name: 'More dates' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Add one Adult Any-Day Pass' })).toBeEnabled();
    await page.getByRole('radio', { name: /Visit on a specific date/ }).check();
    await expect(page.locator('.date-button[aria-pressed="true"]')).toHaveCount(0);
  });
});

test.describe('event detail, adding to the cart', () => {
  test('survey answers are required before reserving; then the tickets go to the cart and checkout opens', async ({ page, request }) => {
    await openGeneralAdmission(page, request);
    await chooseSingleDate(page);
    await page.locator('.date-picker__buttons .date-button:not(.date-button--more)').nth(2).click();
    await page.getByRole('button', { name: /^11:00 AM/ }).click();
    await page.getByRole('button', { name: 'Add one Adult' }).click();
    await page.getByRole('textbox', { name: /Full Name/ }).fill('  Ada   Lovelace ');
    await expect(page.getByLabel(/Home ZIP or postal code/)).toBeVisible();
    const submit = page.getByRole('button', { name: 'Add to cart' });
    await submit.click();
    // The required ZIP question stops the reservation and says so.
    await expect(page.getByRole('alert')).toHaveText('Please correct the highlighted fields and try again.');
    await expect(page.getByText('This field is required.')).toBeVisible();
    await expect(page).toHaveURL(/\/events\//);
    await page.getByLabel(/Home ZIP or postal code/).fill('10024');
    const reserved = page.waitForResponse((r) => /\/api\/cart\/(modify|[^/]+\/modify)/.test(r.url()) && r.request().method() === 'POST');
    await submit.click();
    const response = await reserved;
    expect(response.status()).toBe(200);
    const body = response.request().postDataJSON();
    const lines = body.add ?? body.reserve?.tickets;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ admit_name: 'Ada Lovelace' });
    expect(JSON.stringify(body)).toContain('10024');
    await skipUpsells(page);
  });

  test("a flexible-price amount outside min/max says 'Value entered is outside min/max'", async ({ page, request }) => {
    const events = await apiEvents(request, { 'hidden_type._in': 'public_browsable' });
    const donation = events.find((e) => e.name === 'Support the Museum');
    expect(donation).toBeTruthy();
    await page.goto(`/events/${donation!.id}`);
    await page.getByRole('button', { name: 'Add one Donation' }).click();
    const amount = page.getByRole('spinbutton', { name: 'Amount for Donation' });
    await expect(amount).toHaveAttribute('step', '0.01');
    await amount.fill('1');
    await expect(page.getByText('Value entered is outside min/max')).toBeVisible();
    await amount.fill('30.50');
    await expect(page.getByText('Value entered is outside min/max')).toBeHidden();
  });
});

test.describe('event detail, a link that preselects', () => {
  test('session and quantities come from the link; reserve=warn says what is missing, then the visitor completes it', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    const { date, time } = sessionLabels(session);
    await page.goto(`/events/${session.eventId}?session=${session.sessionId}&quantity=adult:2,Child:1&reserve=warn`);
    // The demo's timed admission asks a required survey question, so the link cannot reserve by itself.
    const warning = page.locator('.notice--warning', { hasText: 'Please correct the highlighted fields and try again.' });
    await expect(warning).toBeVisible();
    await expect(page.getByRole('button', { name: new RegExp(`^${date}\\b`) }).first()).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: new RegExp(`^${time}`) }).first()).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('textbox', { name: /ZIP or postal code/ }).fill('10001');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await skipUpsells(page);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByText('2 × Adult')).toBeVisible();
    await expect(summary.getByText('1 × Child')).toBeVisible();
  });

  test('session=next&quantity=Free place:1&reserve=1 reserves at once and opens the checkout', async ({ page, request }) => {
    // The gallery talk asks no survey question and needs no admission, so nothing stops the link.
    const talk = (await apiEvents(request)).find((e) => e.name.startsWith('Free Gallery Talk'));
    expect(talk, 'demo seller has the gallery talk').toBeTruthy();
    await page.goto(`/events/${talk!.id}?session=next&quantity=${encodeURIComponent('Free place:1')}&reserve=1`);
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole('region', { name: 'Order summary' }).getByText('1 × Free place')).toBeVisible();
  });

  test('a link naming a ticket type the event does not have, or a session and a date together, says so', async ({ page }) => {
    const session = await firstSessionTomorrow(page.request);
    await page.goto(`/events/${session.eventId}?session=${session.sessionId}&quantity=Dragon:1`);
    await expect(page.getByRole('alert').filter({ hasText: 'Sorry, this event has no ticket type called “Dragon”.' })).toBeVisible();
    await page.goto(`/events/${session.eventId}?session=next&date=2030-01-01`);
    await expect(
      page.getByRole('alert').filter({ hasText: 'The session and date query parameters can not be used together.' }),
    ).toBeVisible();
  });
});

test.describe('event detail, an add-on after the admission', () => {
  test('with General Admission for tomorrow in the cart, Ocean Light opens on tomorrow', async ({ page, request }) => {
    const session = await firstSessionTomorrow(page.request);
    const ocean = (await apiEvents(request)).find((e) => e.name.startsWith('Ocean Light'))!;
    const tomorrow = venueDatePlus('America/New_York', 1);
    const calendar = await (await request.get(`/api/events/${ocean.id}/calendar?_seller=demo`)).json();
    expect(calendar.calendar._data.find((d: { date: string }) => d.date === tomorrow)?.status, 'Ocean Light runs tomorrow').toBe(
      'available',
    );

    await reserveThroughUi(page, session, { adults: 1, children: 0 });
    await page.goto(`/events/${ocean.id}`);
    const { date } = sessionLabels(session);
    await expect(page.getByRole('button', { name: new RegExp(`^${date}\\b`) }).first()).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('region', { name: 'Choose a time' })).toBeVisible();
  });
  test('a time that overlaps a visit in the cart is disabled and says which (conflict avoidance, issue 16)', async ({ page, request }) => {
    const events = await apiEvents(request);
    const ocean = events.find((e) => e.name.startsWith('Ocean Light'))!;
    const talk = events.find((e) => e.name.startsWith('Free Gallery Talk'))!;
    const tomorrow = venueDatePlus('America/New_York', 1);
    const sessionsOf = async (eventId: string): Promise<Array<{ id: string; start_datetime: string }>> =>
      (
        await (
          await request.get(`/api/events/${eventId}/sessions?_seller=demo&_sort=start_datetime&start_datetime._ondate=${tomorrow}`)
        ).json()
      ).event_session._data;
    const talkSession = (await sessionsOf(talk.id))[0];
    const oceanSession = (await sessionsOf(ocean.id)).find((s) => Date.parse(s.start_datetime) === Date.parse(talkSession.start_datetime));
    expect(oceanSession, 'Ocean Light starts with the talk').toBeTruthy();

    // Ocean Light is sold after an admission of the same day, one ticket for each (issue 16)
    const admission = await firstSessionTomorrow(page.request);
    const cartId = await reserveThroughApi(page, 'demo', admission.sessionId, [admission.types.Adult]);
    // the checkout's address takes the cart over in this browser
    await page.goto(`/checkout/${cartId}`);
    await expect(page.getByRole('region', { name: 'Order summary' }).getByText('1 × Adult')).toBeVisible();
    await page.goto(`/events/${ocean.id}?session=${oceanSession!.id}&quantity=Adult:1&reserve=1`);
    await expect(page).toHaveURL(/\/checkout$/);
    await page.goto(`/events/${talk.id}?date=${tomorrow}`);
    const time = page.getByRole('region', { name: 'Choose a time' }).getByRole('button', { name: /^1:00\sPM/ });
    await expect(time).toBeDisabled();
    await expect(time).toContainText(/Overlaps Ocean Light: Creatures of the Deep at 1:00\sPM in your cart/);
  });
});

test.describe('event detail, running subtotal (issue 16)', () => {
  test('the subtotal above Add to cart follows the steppers and is what the checkout then asks', async ({ page }) => {
    await chooseSessionThroughUi(page, await firstSessionTomorrow(page.request));
    const subtotal = page.locator('.reserve-subtotal');
    await expect(subtotal).toBeEmpty();
    await page.getByRole('button', { name: 'Add one Adult', exact: true }).click();
    await expect(subtotal).toContainText('Subtotal $25.50');
    await expect(subtotal).toContainText('Includes $1.50 in fees');
    await page.getByRole('button', { name: 'Add one Adult', exact: true }).click();
    await page.getByRole('button', { name: 'Add one Child', exact: true }).click();
    const shown = /Subtotal \$([\d,.]+)/.exec((await subtotal.textContent()) ?? '')?.[1];
    expect(shown).toBeTruthy();
    await page.getByRole('textbox', { name: /ZIP or postal code/ }).fill('10001');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await skipUpsells(page);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByText('Total due')).toBeVisible();
    await expect(summary).toContainText(`$${shown}`);
  });
});

test.describe('event detail, live availability (issue 16)', () => {
  test('a session sold out by other buyers updates the open page within 5 seconds, before any submit', async ({
    page,
    request,
    playwright,
  }) => {
    const talk = (await apiEvents(request)).find((e) => e.name.startsWith('Free Gallery Talk'))!;
    const day = venueDatePlus('America/New_York', 40);
    const [session] = (
      await (await request.get(`/api/events/${talk.id}/sessions?_seller=demo&_sort=start_datetime&start_datetime._ondate=${day}`)).json()
    ).event_session._data as Array<{ id: string; availableCapacity: number }>;
    const detail = await (await request.get(`/api/events/${talk.id}?_seller=demo&_embed=ticket_type`)).json();
    const typeId: string = detail.ticket_type._data[0].id;

    await page.goto(`/events/${talk.id}?date=${day}`);
    const times = page.getByRole('region', { name: 'Choose a time' });
    await times.getByRole('button', { name: /^1:00\sPM/ }).click();
    await expect(page.getByRole('button', { name: /Add one Free place/ })).toBeVisible();

    // Other visitors take every place.
    await otherBuyersTake(playwright, test.info().project.use.baseURL, session.id, typeId, session.availableCapacity);
    const soldAt = Date.now();
    // The talk's only time that day is gone: spec section 4 reloads the calendar and clears the date, saying so.
    await expect(page.getByRole('alert').filter({ hasText: /Tickets have sold out for \w+day, / })).toBeVisible({ timeout: 5000 });
    expect(Date.now() - soldAt).toBeLessThan(5000);
    await expect(times.getByText('Choose a date to see the times.')).toBeVisible();
  });
});

test.describe('event detail, quantity-first', () => {
  test('the conservation tour asks for tickets first, then offers the dates and times with room for them', async ({ page, request }) => {
    const tourEvent = (await apiEvents(request)).find((e) => e.name.startsWith('Behind the Scenes'));
    expect(tourEvent, 'demo seller has the conservation tour (reserve_flow quantity_first)').toBeTruthy();
    await page.goto(`/events/${tourEvent!.id}`);
    const find = page.getByRole('button', { name: 'Find available tickets' });
    await expect(find).toBeVisible();
    await expect(page.locator('.date-button')).toHaveCount(0);
    await find.click();
    await expect(page.getByRole('alert').filter({ hasText: 'Please select at least one ticket to continue.' })).toBeVisible();
    await page.getByRole('button', { name: 'Add one Adult', exact: true }).click();
    await page.getByRole('button', { name: 'Add one Adult', exact: true }).click();
    await page.getByRole('button', { name: 'Add one Student', exact: true }).click();
    await find.click();
    await expect(page.getByText('Your tickets: 2 × Adult, 1 × Student')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add one Adult', exact: true })).toHaveCount(0);
    const firstDate = page.locator('.date-button:not([disabled])').first();
    await firstDate.click();
    await expect(firstDate).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('region', { name: 'Choose a time' }).getByRole('button').and(page.locator(':not([disabled])')).first().click();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    const summary = page.getByRole('region', { name: 'Order summary' });
    await expect(summary.getByText('2 × Adult')).toBeVisible();
    await expect(summary.getByText('1 × Student')).toBeVisible();
  });

  test("a calendar day's status never breaks inside a word, on a phone or a desktop", async ({ page, request }) => {
    const tour = (await apiEvents(request)).find((e) => e.name.startsWith('Behind the Scenes'))!;
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/events/${tour.id}?quantity=Adult:1`);
      await page.getByRole('button', { name: 'Find available tickets' }).click();
      await page.getByRole('button', { name: 'More dates' }).click();
      const dialog = page.getByRole('dialog', { name: 'Choose a date' });
      // Next month lies wholly in the calendar's 120 days, and the tour runs Tuesday to Friday: the rest is unavailable.
      await dialog.getByRole('button', { name: /next/i }).click();
      await expect(dialog.getByRole('button', { name: /, Unavailable/ }).first()).toBeVisible();
      // Each shown status takes at most one line per word: 'Unavailable' in two lines was the word broken apart.
      const statuses = await dialog.locator('.calendar-day__status').evaluateAll((spans) =>
        spans
          .filter((s) => s.getClientRects().length > 0)
          .map((s) => ({
            words: (s.textContent ?? '').trim().split(/\s+/).length,
            lines: Math.round(s.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight)),
          })),
      );
      expect(
        statuses.filter((s) => s.lines > s.words),
        `at ${width} px`,
      ).toEqual([]);
      if (width === 1280) expect(statuses.length, 'the desktop calendar names its unavailable days').toBeGreaterThan(0);
      await page.keyboard.press('Escape');
    }
  });

  test('a chosen time that no longer has room for the tickets says so within 5 seconds (live availability, issue 16)', async ({
    page,
    request,
    playwright,
  }) => {
    const tour = (await apiEvents(request)).find((e) => e.name.startsWith('Behind the Scenes'))!;
    await page.goto(`/events/${tour.id}?quantity=Adult:2`);
    await page.getByRole('button', { name: 'Find available tickets' }).click();
    // a later date than the other tests use, and its first time
    await page.locator('.date-button:not([disabled]):not(.date-button--more)').nth(3).click();
    const detail = page.waitForResponse((r) => /\/api\/events\/[^/]+\/sessions\/[0-9a-f-]{36}\?/.test(r.url()));
    await page.getByRole('region', { name: 'Choose a time' }).getByRole('button').and(page.locator(':not([disabled])')).first().click();
    const session = (await (await detail).json()).event_session._data[0] as { id: string; availableCapacity: number };
    const typeId = (await (await request.get(`/api/events/${tour.id}?_seller=demo&_embed=ticket_type`)).json()).ticket_type._data.find(
      (t: { name: string }) => t.name === 'Adult',
    ).id as string;
    // Others leave one place: the two Adults no longer fit that time.
    await otherBuyersTake(playwright, test.info().project.use.baseURL, session.id, typeId, session.availableCapacity - 1);
    const tookAt = Date.now();
    await expect(page.getByRole('alert').filter({ hasText: /Tickets have sold out for (the session at|\w+day, )/ })).toBeVisible({
      timeout: 5000,
    });
    expect(Date.now() - tookAt).toBeLessThan(5000);
  });

  test('Change tickets opens the quantities again and forgets the date', async ({ page, request }) => {
    const tourEvent = (await apiEvents(request)).find((e) => e.name.startsWith('Behind the Scenes'))!;
    await page.goto(`/events/${tourEvent.id}?quantity=Adult:1`);
    await page.getByRole('button', { name: 'Find available tickets' }).click();
    await page.locator('.date-button:not([disabled])').first().click();
    await page.getByRole('button', { name: 'Change tickets' }).click();
    await expect(page.getByRole('button', { name: 'Add one Adult', exact: true })).toBeVisible();
    await expect(page.locator('.date-button')).toHaveCount(0);
  });
});

test.describe('event detail accessibility and screenshots', () => {
  test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

  for (const viewport of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'mobile', width: 390, height: 844 },
  ]) {
    test(`axe finds no serious or critical violations, ${viewport.name}`, async ({ page, request }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await openGeneralAdmission(page, request);
      await expectNoSeriousA11yViolations(page);
      await chooseSingleDate(page);
      await chooseSecondDate(page);
      await page.getByRole('button', { name: /^10:00 AM/ }).click();
      await page.getByRole('button', { name: 'Add one Adult' }).click();
      await page.getByRole('button', { name: 'Add one Child' }).click();
      await expect(page.getByLabel(/Home ZIP or postal code/)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: `${SHOTS}/reserve-${viewport.name}.png`, fullPage: true });
      await page.getByRole('button', { name: 'More dates' }).click();
      await expect(page.getByRole('dialog', { name: 'Choose a date' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `${SHOTS}/reserve-calendar-${viewport.name}.png` });
    });
  }
});

import type { APIRequestContext, Page } from '@playwright/test';
import { dateIn, plusDays, timeIn, weekdayOf, type AwkwardInstant } from '../helpers/instants';
import { expect, test } from './clock-fixture';

/**
 * Issue 21: the storefront on the days where calendars and clocks are awkward. Each 'clock' project
 * (playwright.config.ts) runs this file against a server started with TEST_NOW at one instant of
 * tests/helpers/instants.ts and a Chromium whose clock is pinned to the same line and whose time zone is
 * another than the venue's. Every expectation is computed here from the pinned "now" and the venue's zone
 * with Intl (not with the product's date code): today and tomorrow are the venue's, labels carry the right
 * weekday, sessions keep their local times on daylight-saving days, holds last their real duration.
 */

/** General Admission: every day, 09:00 to 16:30 every 30 minutes, weekends annotated 'Busy day'. */
const GA_TIMES = Array.from({ length: 16 }, (_, i) => {
  const minutes = 9 * 60 + i * 30;
  const h = Math.floor(minutes / 60);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(minutes % 60).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
});
const LAST_GA_START = '16:30';
const HOLD_SECONDS = 900; // sellers/demo/config.json cart.hold_seconds

const prefixOf = (p: AwkwardInstant) => (p.seller === 'demo' ? '' : `/${p.seller}`);
const SHORT = (date: string) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
const LONG = (date: string) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );

async function generalAdmission(request: APIRequestContext, seller: string) {
  const body = await (await request.get(`/api/events/available?_seller=${seller}&hidden_type._in=public_browsable`)).json();
  const ga = (body.event_template._data as Array<{ id: string; name: string }>).find((e) => e.name === 'General Admission');
  expect(ga, `${seller} has General Admission`).toBeTruthy();
  return ga!.id;
}

/** Session starts of a venue date, from the API. */
async function sessionStarts(request: APIRequestContext, seller: string, eventId: string, date: string): Promise<string[]> {
  const body = await (
    await request.get(`/api/events/${eventId}/sessions?_seller=${seller}&_sort=start_datetime&start_datetime._ondate=${date}&_limit=100`)
  ).json();
  return (body.event_session._data as Array<{ start_datetime: string }>).map((s) => s.start_datetime);
}

async function openDatedAdmission(page: Page, pinned: AwkwardInstant, eventId: string) {
  await page.goto(`${prefixOf(pinned)}/events/${eventId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'General Admission' })).toBeVisible();
  await page.getByRole('radio', { name: /Visit on a specific date/ }).check();
  await expect(page.getByRole('button', { name: 'More dates' })).toBeVisible();
}

test.describe('pinned clock', () => {
  test("the listing's today and tomorrow are the venue's days", async ({ page, pinnedInstant, now }) => {
    const pinned = pinnedInstant!;
    const requests: URL[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/events/available')) requests.push(new URL(r.url()));
    });
    await page.goto(`${prefixOf(pinned)}/events`);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose your events' })).toBeVisible();
    const today = dateIn(now(), pinned.venueTz);
    for (const [filter, date] of [
      ['today', today],
      ['tomorrow', plusDays(today, 1)],
    ] as const) {
      requests.length = 0;
      await page.getByLabel('Date').selectOption(filter);
      await expect.poll(() => requests.some((u) => u.searchParams.has('start_datetime._gte'))).toBe(true);
      const asked = requests.filter((u) => u.searchParams.has('start_datetime._gte')).at(-1)!;
      const start = new Date(asked.searchParams.get('start_datetime._gte')!);
      const end = new Date(asked.searchParams.get('start_datetime._lt')!);
      // [venue midnight of the day, venue midnight of the next day): 23, 24 or 25 hours.
      expect([dateIn(start, pinned.venueTz), timeIn(start, pinned.venueTz)], `${filter} starts at the venue's midnight`).toEqual([
        date,
        '00:00',
      ]);
      expect([dateIn(end, pinned.venueTz), timeIn(end, pinned.venueTz)], `${filter} ends at the next midnight`).toEqual([
        plusDays(date, 1),
        '00:00',
      ]);
      expect(dateIn(start.getTime() - 60_000, pinned.venueTz)).toBe(plusDays(date, -1));
      // What the page lists is what the API has on that venue day.
      const api = await (await page.request.get(`/api/events/available?${asked.searchParams}`)).json();
      const names = (api.event_template._data as Array<{ name: string }>).map((e) => e.name);
      await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
      if (names.length) await expect(page.locator('.event-item__name')).toHaveText(names);
      else await expect(page.getByText('We could not find any events that match your filters.')).toBeVisible();
    }
  });

  test("date buttons, sessions and the calendar grid are the venue's", async ({ page, pinnedInstant, now }) => {
    const pinned = pinnedInstant!;
    const eventId = await generalAdmission(page.request, pinned.seller);
    await openDatedAdmission(page, pinned, eventId);

    // The first date is the venue's today while a session is still ahead there, else its tomorrow.
    const today = dateIn(now(), pinned.venueTz);
    const first = timeIn(now(), pinned.venueTz) < LAST_GA_START ? today : plusDays(today, 1);
    const buttons = page.locator('.date-picker__buttons .date-button:not(.date-button--more)');
    await expect(buttons).toHaveCount(8);
    const expected = Array.from({ length: 8 }, (_, i) => plusDays(first, i));
    await expect(buttons.locator('.date-button__day')).toHaveText(expected.map(SHORT));
    // Message rules by weekday: the demo annotates Saturdays and Sundays 'Busy day', by the venue's calendar.
    for (const [i, date] of expected.entries()) {
      const weekend = [0, 6].includes(weekdayOf(date));
      await expect(buttons.nth(i).locator('.date-button__note', { hasText: 'Busy day' })).toHaveCount(weekend ? 1 : 0);
    }

    // The first date's sessions: 9:00 AM to 4:30 PM local, also on a daylight-saving day, as the API has them.
    await buttons.first().click();
    const starts = await sessionStarts(page.request, pinned.seller, eventId, first);
    expect(starts.map((s) => dateIn(new Date(s), pinned.venueTz))).toEqual(starts.map(() => first));
    expect(starts.map((s) => timeIn(new Date(s), pinned.venueTz))).toEqual(
      GA_TIMES.map((_, i) => {
        const m = 9 * 60 + i * 30;
        return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      }),
    );
    const shown: string[] = [];
    for (const tab of ['Morning', 'Afternoon']) {
      await page.getByRole('tab', { name: new RegExp(tab) }).click();
      await expect(page.locator('.session-button').first()).toBeVisible();
      shown.push(...(await page.locator('.session-button .session-button__time').allTextContents()));
    }
    expect(shown).toEqual(GA_TIMES);

    // The month grid: each day under its weekday, the month's real length, and the keyboard's +7 and +1 days.
    await page.getByRole('button', { name: 'More dates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a date' });
    await expect(dialog.getByRole('grid')).toBeVisible();
    const month = first.slice(0, 7);
    await expect(
      dialog.getByRole('heading', {
        name: new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
          new Date(`${month}-15T12:00:00Z`),
        ),
      }),
    ).toBeVisible();
    const cells = await dialog.locator('tbody tr').evaluateAll((rows) =>
      rows.flatMap((row) =>
        Array.from(row.querySelectorAll('td')).map((td, column) => ({
          column,
          label: td.querySelector('.visually-hidden')?.textContent ?? null,
        })),
      ),
    );
    const inMonth = cells.filter((c) => c.label !== null);
    const [y, m] = month.split('-').map(Number);
    const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
    expect(inMonth).toHaveLength(daysInMonth);
    for (const [i, cell] of inMonth.entries()) {
      const date = `${month}-${String(i + 1).padStart(2, '0')}`;
      expect(cell.label, `${date} in its weekday's column`).toContain(LONG(date));
      expect(cell.column).toBe(weekdayOf(date));
    }
    const focused = () => page.evaluate(() => document.activeElement?.querySelector('.visually-hidden')?.textContent ?? '');
    await expect.poll(focused).toContain(LONG(first));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await expect.poll(focused).toContain(LONG(plusDays(first, 8)));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.locator('.session-button').first()).toBeVisible();
  });

  test('a hold lasts its real length, across a clock change too', async ({ page, pinnedInstant, now }) => {
    const pinned = pinnedInstant!;
    const eventId = await generalAdmission(page.request, pinned.seller);
    const tomorrow = plusDays(dateIn(now(), pinned.venueTz), 1);
    const body = await (
      await page.request.get(
        `/api/events/${eventId}/sessions?_seller=${pinned.seller}&_sort=start_datetime&start_datetime._ondate=${tomorrow}&_limit=1`,
      )
    ).json();
    const session = body.event_session._data[0];
    const detail = await (await page.request.get(`/api/events/${eventId}?_seller=${pinned.seller}&_embed=ticket_group,ticket_type`)).json();
    const adult = (detail.ticket_type._data as Array<{ id: string; name: string; ticket_group_id: string }>).find(
      (t) => t.name === 'Adult',
    )!;

    await page.goto(`${prefixOf(pinned)}/events`);
    const reserved = await page.request.post(`/api/cart/modify?_seller=${pinned.seller}`, {
      headers: { 'X-Ticketing-App': 'ecomm' },
      data: {
        add: [{ event_session_id: session.id, ticket_type_id: adult.id }],
        additional_info: { [adult.ticket_group_id]: { zip_code: '10001' } },
      },
    });
    expect(reserved.status(), await reserved.text()).toBe(200);
    const cart = (await reserved.json()).cart._data[0];
    // The server's hold: its pinned now plus 900 s, in real seconds (15 minutes, not 15 minutes plus an hour).
    expect(Math.abs(Date.parse(cart.expires_at) - now().getTime() - HOLD_SECONDS * 1000)).toBeLessThan(10_000);
    expect(cart.expires_in).toBeGreaterThan(HOLD_SECONDS - 10);
    expect(cart.expires_in).toBeLessThanOrEqual(HOLD_SECONDS);

    await page.goto(`${prefixOf(pinned)}/checkout/${cart.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment information' })).toBeVisible();
    await expect(page.getByRole('timer').first()).toHaveText(/held for 1[45]:[0-5]\d/);
    // The cart names the session by its venue-local date and time.
    const start = new Date(session.start_datetime);
    const [h, mm] = timeIn(start, pinned.venueTz).split(':').map(Number);
    const time = `${h % 12 === 0 ? 12 : h % 12}:${String(mm).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
    await expect(page.getByText(new RegExp(`${SHORT(tomorrow).replace(/,/g, ',?')},? \\d{4} at ${time}`)).first()).toBeVisible();
  });
});

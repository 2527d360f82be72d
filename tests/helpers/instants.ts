/**
 * The instants where calendars and clocks are awkward (issue 21). The date-sensitive tests run pinned to each:
 * unit and API tests through the clock they pass to the code, the browser tests (tests/e2e/clock.spec.ts)
 * against a server started with TEST_NOW at the instant and a Chromium whose clock Playwright pins to it.
 *
 * Each names the venue zone it is awkward in, the browser's zone (often another, so "today" differs between
 * browser and venue) and the server process's TZ (the product must not depend on it).
 */
export interface AwkwardInstant {
  /** short id: project names, ports, file names */
  key: string;
  /** what makes it awkward */
  name: string;
  /** the instant, ISO 8601 with the venue's offset */
  iso: string;
  /** the seller whose venue it is awkward for: the demo (America/New_York) or its Pacific/Auckland copy */
  seller: 'demo' | 'e2e-auckland';
  venueTz: string;
  browserTz: string;
  serverTz: string;
}

export const AUCKLAND_SELLER = 'e2e-auckland';

export const AWKWARD_INSTANTS: readonly AwkwardInstant[] = [
  {
    key: 'month-end',
    name: 'the last evening of a 30-day month (already December in UTC)',
    iso: '2026-11-30T21:30:00-05:00',
    seller: 'demo',
    venueTz: 'America/New_York',
    browserTz: 'Pacific/Kiritimati',
    serverTz: 'Asia/Tokyo',
  },
  {
    key: 'feb-28',
    name: '28 February of a common year',
    iso: '2027-02-28T21:30:00-05:00',
    seller: 'demo',
    venueTz: 'America/New_York',
    browserTz: 'Europe/London',
    serverTz: 'UTC',
  },
  {
    key: 'feb-29',
    name: '29 February of a leap year',
    iso: '2028-02-29T21:30:00-05:00',
    seller: 'demo',
    venueTz: 'America/New_York',
    browserTz: 'America/New_York',
    serverTz: 'Europe/Berlin',
  },
  {
    key: 'dst-spring',
    name: 'spring forward: 10 minutes before the 02:00 gap',
    iso: '2027-03-14T01:50:00-05:00',
    seller: 'demo',
    venueTz: 'America/New_York',
    browserTz: 'America/New_York',
    serverTz: 'UTC',
  },
  {
    key: 'dst-fall',
    name: 'fall back: the first 01:50 of the repeated hour',
    iso: '2027-11-07T01:50:00-04:00',
    seller: 'demo',
    venueTz: 'America/New_York',
    browserTz: 'America/Chicago',
    serverTz: 'America/New_York',
  },
  {
    key: 'new-year',
    name: '31 December at 23:30 venue time (already next year in UTC)',
    iso: '2026-12-31T23:30:00-05:00',
    seller: 'demo',
    venueTz: 'America/New_York',
    browserTz: 'Europe/Berlin',
    serverTz: 'UTC',
  },
  {
    key: 'auckland',
    name: 'a venue ahead of UTC: 00:30 on 1 December in Auckland, 30 November in UTC, 29 November in the browser',
    iso: '2026-12-01T00:30:00+13:00',
    seller: AUCKLAND_SELLER,
    venueTz: 'Pacific/Auckland',
    browserTz: 'Etc/GMT+12',
    serverTz: 'UTC',
  },
];

/** 'YYYY-MM-DD' of an instant in a zone, computed with Intl only (independent of the product's date code). */
export function dateIn(instant: Date | number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** 'HH:mm' (24-hour) of an instant in a zone, with Intl only. */
export function timeIn(instant: Date | number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
}

/** A calendar date plus n days, with real month lengths (UTC calendar arithmetic: a date has no zone). */
export function plusDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** 0 = Sunday, of a calendar date. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

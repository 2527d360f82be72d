/**
 * Dates and time zones: the one module (the venue's time zone decides what "a date" is, DESIGN.md section 3).
 * Dates travel as 'YYYY-MM-DD' strings, instants as Date or ISO strings, times of day as 'HH:mm'. Computed with Intl
 * only (no time-zone database in the bundle), shared by the server (calendar, schedules, _ondate filters) and the
 * storefront (date buttons, calendar grid, session labels).
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_OF_DAY = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_MS = 86_400_000;

/** A real calendar date ('2026-02-30' is not), in a sane year range. */
export function isValidIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 2200) return false;
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

/** 'HH:mm' (24:00 allowed as an exclusive end of day). */
export function isValidTimeOfDay(value: string): boolean {
  return TIME_OF_DAY.test(value);
}

/** True when Intl knows the time zone's name. */
export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

// A zone's UTC offset only changes at instants on a quarter hour, so it is read once per quarter hour with a cached
// Intl formatter (a 120-day calendar of thousands of sessions needs it fast); the wall clock is then plain arithmetic.
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();
const QUARTER_HOUR_MS = 15 * 60_000;

/** Minutes the zone is ahead of UTC at an instant (New York in winter: -300). Throws a RangeError for an unknown zone. */
export function offsetMinutes(instant: Date | number, tz: string): number {
  const ms = typeof instant === 'number' ? instant : instant.getTime();
  let perZone = offsets.get(tz);
  if (!perZone) offsets.set(tz, (perZone = new Map()));
  const bucket = Math.floor(ms / QUARTER_HOUR_MS);
  let offset = perZone.get(bucket);
  if (offset === undefined) {
    let f = formatters.get(tz);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
      });
      formatters.set(tz, f);
    }
    const p: Record<string, number> = {};
    for (const part of f.formatToParts(new Date(bucket * QUARTER_HOUR_MS))) p[part.type] = Number(part.value);
    offset = Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - bucket * QUARTER_HOUR_MS) / 60_000);
    if (perZone.size > 200_000) perZone.clear(); // a long-running server does not grow without bound
    perZone.set(bucket, offset);
  }
  return offset;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

function wallClock(instant: Date | string, tz: string) {
  const ms = new Date(instant).getTime();
  const local = new Date(ms + offsetMinutes(ms, tz) * 60_000);
  return {
    year: String(local.getUTCFullYear()),
    month: pad2(local.getUTCMonth() + 1),
    day: pad2(local.getUTCDate()),
    hour: pad2(local.getUTCHours()),
    minute: pad2(local.getUTCMinutes()),
  };
}

/** The venue-local date and time of day of an instant, with one formatting pass. */
export function venueDateTime(instant: Date | string, tz: string): { date: string; time: string } {
  const p = wallClock(instant, tz);
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** The venue-local date of an instant. */
export function venueDate(instant: Date | string, tz: string): string {
  const p = wallClock(instant, tz);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The venue-local time of day of an instant, 'HH:mm'. */
export function venueTime(instant: Date | string, tz: string): string {
  const p = wallClock(instant, tz);
  return `${p.hour}:${p.minute}`;
}

/** Today's date at the venue. */
export function todayAt(tz: string, now: Date): string {
  return venueDate(now, tz);
}

/**
 * The instant of a venue-local wall-clock time. A time skipped by a spring-forward change (02:30) moves forward by
 * the gap (03:30); a time repeated by a fall-back change takes its first occurrence.
 */
export function zonedTime(date: string, time: string, tz: string): Date {
  const m = HH_MM.exec(time);
  if (!m) throw new Error(`not a HH:mm time: ${time}`);
  // The wall time read as if it were UTC; the zone's offsets a day before and after bracket any change near it.
  const guess = dayNumber(date) * DAY_MS + (Number(m[1]) * 60 + Number(m[2])) * 60_000;
  const before = offsetMinutes(guess - DAY_MS, tz);
  const after = offsetMinutes(guess + DAY_MS, tz);
  const matches = [...new Set([before, after])]
    .map((offset) => guess - offset * 60_000)
    .filter((t) => offsetMinutes(t, tz) * 60_000 === guess - t);
  // Repeated (fall back): its first occurrence; skipped (spring forward): moved on by the gap.
  return new Date(matches.length ? Math.min(...matches) : guess - before * 60_000);
}

/** The instant a venue-local day starts (a DST day is 23 or 25 hours long). */
export function startOfVenueDay(date: string, tz: string): Date {
  return zonedTime(date, '00:00', tz);
}

/** [start, end) of a venue-local day as instants. */
export function venueDayRange(date: string, tz: string): { start: Date; end: Date } {
  return { start: startOfVenueDay(date, tz), end: startOfVenueDay(addDays(date, 1), tz) };
}

/** 'YYYY-MM-DD' as days since 1970-01-01 (calendar arithmetic without a zone never meets DST). */
export function dayNumber(date: string): number {
  const m = ISO_DATE.exec(date);
  if (!m) throw new Error(`not an ISO date: ${date}`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(ms).toISOString().slice(0, 10) !== date) throw new Error(`not a calendar date: ${date}`);
  return ms / DAY_MS;
}

/** Days since 1970-01-01 as 'YYYY-MM-DD'. */
export function dateOfDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar arithmetic on 'YYYY-MM-DD', independent of any time zone. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Whole days from a to b ('2026-01-01' -> '2026-01-03' is 2). */
export function daysBetween(a: string, b: string): number {
  const ms = Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`);
  return Math.round(ms / DAY_MS);
}

/** Every date from start to end, both included. */
export function datesInRange(start: string, end: string): string[] {
  const out: string[] = [];
  // One Date stepped a day at a time: a calendar of 120 days called addDays() 120 times, about 1 µs each.
  const day = new Date(`${start}T00:00:00Z`);
  for (let d = start; d <= end;) {
    out.push(d);
    day.setUTCDate(day.getUTCDate() + 1);
    d = day.toISOString().slice(0, 10);
  }
  return out;
}

/** 0 = Sunday ... 6 = Saturday, of a calendar date. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

// Made on first use, not as the module loads: the first Intl formatter a page makes waits for the browser to load its
// ICU data (20-108 ms, median 35, in fresh Chromium pages here), which as a module constant ran in the one long task
// that evaluates the page's scripts, before the first screen (README 'Performance').
let longDate: Intl.DateTimeFormat | undefined;

/** 'Friday, March 13, 2026' for a venue date (already the venue's: formatted as UTC); used for accessible labels. */
export function longDateLabel(date: string): string {
  longDate ??= new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return longDate.format(new Date(`${date}T00:00:00Z`));
}

const labelFormatters = new Map<string, Intl.DateTimeFormat>();

/** Spec section 9 session format 'ddd, MMM D, YYYY [at] h:mm A' ('Sat, Nov 21, 2026 at 9:30 AM') in the
 *  venue's time zone (the browser's own when none is known). */
export function sessionLabel(iso: string, timeZone: string | null | undefined): string {
  const key = timeZone ?? '';
  let f = labelFormatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: timeZone ?? undefined,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    });
    labelFormatters.set(key, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(iso))) p[part.type] = part.value;
  return `${p.weekday}, ${p.month} ${p.day}, ${p.year} at ${p.hour}:${p.minute} ${p.dayPeriod.toUpperCase()}`;
}

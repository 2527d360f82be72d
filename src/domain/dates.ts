import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * What "a date" is: the venue timezone decides (DESIGN.md section 3). Dates travel as 'YYYY-MM-DD'
 * strings; instants as Date / ISO strings. Shared by the server (calendar, _ondate filters) and the
 * storefront (date buttons, calendar grid).
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_OF_DAY = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;

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

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

// dayjs' timezone plugin builds a formatter per call, too slow for a 120-day calendar of thousands of
// sessions. A zone's UTC offset only changes at instants on a quarter hour, so it is read once per quarter
// hour with a cached Intl formatter; the wall clock is then plain arithmetic.
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, Map<number, number>>();
const QUARTER_HOUR_MS = 15 * 60_000;

function offsetMinutesAt(ms: number, tz: string): number {
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

function wallClock(instant: Date | string, tz: string): Record<string, string> {
  const ms = new Date(instant).getTime();
  const local = new Date(ms + offsetMinutesAt(ms, tz) * 60_000);
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

/** The instant a venue-local day starts (a DST day is 23 or 25 hours long). */
export function startOfVenueDay(date: string, tz: string): Date {
  return dayjs.tz(`${date}T00:00:00`, tz).toDate();
}

/** [start, end) of a venue-local day as instants. */
export function venueDayRange(date: string, tz: string): { start: Date; end: Date } {
  return { start: startOfVenueDay(date, tz), end: startOfVenueDay(addDays(date, 1), tz) };
}

/** Calendar arithmetic on 'YYYY-MM-DD', independent of any timezone. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Whole days from a to b ('2026-01-01' -> '2026-01-03' is 2). */
export function daysBetween(a: string, b: string): number {
  const ms = Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`);
  return Math.round(ms / 86_400_000);
}

/** Every date from start to end, both included. */
export function datesInRange(start: string, end: string): string[] {
  const out: string[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) out.push(d);
  return out;
}

/** 0 = Sunday ... 6 = Saturday, of a calendar date. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** Today's date at the venue. */
export function todayAt(tz: string, now: Date): string {
  return venueDate(now, tz);
}

/** 'Friday, March 13, 2026' — used for accessible labels. */
export function longDateLabel(date: string): string {
  return dayjs(`${date}T00:00:00Z`).utc().format('dddd, MMMM D, YYYY');
}

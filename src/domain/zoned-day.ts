/** Calendar days in a named time zone, computed with Intl only (no time-zone database in the bundle). */

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a time zone (throws a RangeError for an unknown zone). */
export function wallClock(instant: Date, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return parts as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The calendar date of an instant as seen in a time zone. */
export function localDateOf(instant: Date, timeZone: string): LocalDate {
  const { year, month, day } = wallClock(instant, timeZone);
  return { year, month, day };
}

/** Minutes the zone is ahead of UTC at an instant (New York in winter: -300). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60000);
}

/** The instant a local calendar day starts in a time zone (its local midnight). */
export function startOfLocalDay(date: LocalDate, timeZone: string): Date {
  const guess = Date.UTC(date.year, date.month - 1, date.day);
  const first = guess - zoneOffsetMinutes(new Date(guess), timeZone) * 60000;
  // Re-check at the found instant: the offset differs when a DST change falls between guess and midnight.
  return new Date(guess - zoneOffsetMinutes(new Date(first), timeZone) * 60000);
}

/** date + n calendar days (plain calendar arithmetic, no time zone involved). */
export function addDays(date: LocalDate, n: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + n));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function isoDate(date: LocalDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
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

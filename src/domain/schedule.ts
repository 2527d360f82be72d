/**
 * Schedule expansion: a catalogue schedule (weekdays, times or an interval, a date range) becomes the list of
 * session instants. Pure (no I/O, no clock): "today" is passed in. Wall-clock times are read in the venue
 * timezone (dates.ts), so 09:00 stays 09:00 local on both sides of a daylight-saving change.
 */

import { dateOfDayNumber, dayNumber, venueDate, zonedTime } from './dates';

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
export const WEEKDAYS: Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export interface TimeInterval {
  start: string;
  /** Exclusive for starts: 09:00 to 17:00 every 30 minutes starts at 09:00 ... 16:30. */
  end: string;
  interval_minutes: number;
}

export interface Schedule {
  /** Days of the week the schedule runs; absent means every day. */
  weekdays?: Weekday[];
  times: string[] | TimeInterval;
  duration_minutes: number;
  /** Inclusive range; each an ISO date (2026-05-01) or relative to today in the venue timezone (+0d, +119d, -1d). */
  dates: { from: string; to: string };
  exclude_dates?: string[];
  capacity?: number;
  oversell?: number;
  /** What every ticket of these sessions costs more (a peak time), as a decimal ('5.00'); none: '0.00'. */
  price_increase?: string;
}

export interface SessionSlot {
  start: Date;
  end: Date;
}

const RELATIVE = /^([+-]\d+)d$/;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Resolves an ISO date or a relative "+Nd" (days from today in the timezone) to an ISO date. */
export function resolveDate(value: string, today: Date, timeZone: string): string {
  const rel = RELATIVE.exec(value);
  if (rel) return dateOfDayNumber(dayNumber(venueDate(today, timeZone)) + Number(rel[1]));
  dayNumber(value);
  return value;
}

function minutesOf(time: string): number {
  const m = HH_MM.exec(time);
  if (!m) throw new Error(`not a HH:mm time: ${time}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The local start times ("HH:mm") of one day of a schedule. */
export function startTimes(times: Schedule['times']): string[] {
  if (Array.isArray(times)) {
    times.forEach(minutesOf);
    return [...new Set(times)].sort();
  }
  const from = minutesOf(times.start);
  const to = times.end === '24:00' ? 1440 : minutesOf(times.end);
  if (!(times.interval_minutes > 0)) throw new Error('interval_minutes must be positive');
  const out: string[] = [];
  for (let t = from; t < to; t += times.interval_minutes) out.push(hhmm(t));
  return out;
}

/** Every session {start, end} of a schedule, in start order, expanded in the venue timezone. */
export function expandSchedule(schedule: Schedule, timeZone: string, today: Date): SessionSlot[] {
  const first = dayNumber(resolveDate(schedule.dates.from, today, timeZone));
  const last = dayNumber(resolveDate(schedule.dates.to, today, timeZone));
  const excluded = new Set((schedule.exclude_dates ?? []).map((d) => resolveDate(d, today, timeZone)));
  const weekdays = schedule.weekdays ? new Set(schedule.weekdays) : null;
  const times = startTimes(schedule.times);
  const durationMs = schedule.duration_minutes * 60_000;
  const slots: SessionSlot[] = [];
  for (let day = first; day <= last; day++) {
    const iso = dateOfDayNumber(day);
    if (excluded.has(iso)) continue;
    if (weekdays && !weekdays.has(WEEKDAYS[new Date(`${iso}T00:00:00Z`).getUTCDay()])) continue;
    for (const time of times) {
      const start = zonedTime(iso, time, timeZone);
      slots.push({ start, end: new Date(start.getTime() + durationMs) });
    }
  }
  return slots;
}

/** The number of days a schedule spans (inclusive), before weekday and exclusion filters. */
export function scheduleDayCount(schedule: Schedule, timeZone: string, today: Date): number {
  const first = dayNumber(resolveDate(schedule.dates.from, today, timeZone));
  const last = dayNumber(resolveDate(schedule.dates.to, today, timeZone));
  return Math.max(0, last - first + 1);
}

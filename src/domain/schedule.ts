/**
 * Schedule expansion: a catalogue schedule (weekdays, times or an interval, a date range) becomes the list of
 * session instants. Pure (no I/O, no clock): "today" is passed in. Wall-clock times are read in the venue
 * timezone through Intl, so 09:00 stays 09:00 local on both sides of a daylight-saving change.
 */

import { wallClock } from './zoned-day';

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
}

export interface SessionSlot {
  start: Date;
  end: Date;
}

const RELATIVE = /^([+-]\d+)d$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A calendar date without a zone, counted in days since 1970-01-01 (UTC arithmetic never meets DST). */
type DayNumber = number;
const DAY_MS = 86_400_000;

function dayOfIso(date: string): DayNumber {
  const m = ISO_DATE.exec(date);
  if (!m) throw new Error(`not an ISO date: ${date}`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(ms).toISOString().slice(0, 10) !== date) throw new Error(`not a calendar date: ${date}`);
  return ms / DAY_MS;
}

export function isoOfDay(day: DayNumber): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Offset (ms) of the timezone from UTC at an instant: local wall clock minus UTC. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(new Date(instant), timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** True when Intl knows the timezone name. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    wallClock(new Date(0), timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The ISO date (YYYY-MM-DD) that an instant falls on in a timezone. */
export function localDate(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/**
 * The instant of a local wall-clock time in a timezone. A time skipped by a spring-forward change (02:30)
 * moves forward by the gap (03:30); a time repeated by a fall-back change takes its first occurrence.
 */
export function zonedTime(date: string, time: string, timeZone: string): Date {
  const m = HH_MM.exec(time);
  if (!m) throw new Error(`not a HH:mm time: ${time}`);
  const guess = dayOfIso(date) * DAY_MS + (Number(m[1]) * 60 + Number(m[2])) * 60_000;
  const o1 = offsetAt(guess, timeZone);
  const t1 = guess - o1;
  const o2 = offsetAt(t1, timeZone);
  if (o1 === o2) return new Date(t1);
  const t2 = guess - o2;
  if (offsetAt(t2, timeZone) === o2) return new Date(Math.min(t1, t2));
  return new Date(Math.max(t1, t2));
}

/** Resolves an ISO date or a relative "+Nd" (days from today in the timezone) to an ISO date. */
export function resolveDate(value: string, today: Date, timeZone: string): string {
  const rel = RELATIVE.exec(value);
  if (rel) return isoOfDay(dayOfIso(localDate(today, timeZone)) + Number(rel[1]));
  dayOfIso(value);
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
  const first = dayOfIso(resolveDate(schedule.dates.from, today, timeZone));
  const last = dayOfIso(resolveDate(schedule.dates.to, today, timeZone));
  const excluded = new Set((schedule.exclude_dates ?? []).map((d) => resolveDate(d, today, timeZone)));
  const weekdays = schedule.weekdays ? new Set(schedule.weekdays) : null;
  const times = startTimes(schedule.times);
  const durationMs = schedule.duration_minutes * 60_000;
  const slots: SessionSlot[] = [];
  for (let day = first; day <= last; day++) {
    const iso = isoOfDay(day);
    if (excluded.has(iso)) continue;
    if (weekdays && !weekdays.has(WEEKDAYS[new Date(day * DAY_MS).getUTCDay()])) continue;
    for (const time of times) {
      const start = zonedTime(iso, time, timeZone);
      slots.push({ start, end: new Date(start.getTime() + durationMs) });
    }
  }
  return slots;
}

/** The number of days a schedule spans (inclusive), before weekday and exclusion filters. */
export function scheduleDayCount(schedule: Schedule, timeZone: string, today: Date): number {
  const first = dayOfIso(resolveDate(schedule.dates.from, today, timeZone));
  const last = dayOfIso(resolveDate(schedule.dates.to, today, timeZone));
  return Math.max(0, last - first + 1);
}

/**
 * Issue 21: the date rules at the instants where calendars and clocks are awkward (tests/helpers/instants.ts).
 * Expectations are computed with Intl and plain calendar arithmetic in this file, never with the product's own
 * date code, so a shared mistake cannot hide itself.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AWKWARD_INSTANTS, dateIn, plusDays, timeIn, weekdayOf } from '../helpers/instants';
import { readSellerFolder } from '../../server/catalog/read';
import { planSellerFolder } from '../../server/catalog/plan';
import { startTimes, WEEKDAYS } from '../../src/domain/schedule';
import { addDays, todayAt, venueDate, venueDayRange, venueTime } from '../../src/domain/dates';
import { calendarMonth } from '../../src/domain/calendar-grid';
import { dateFilterRange } from '../../src/domain/event-filters';
import { formatSessionTime, sessionTabs } from '../../src/domain/session-tabs';
import { dateMessages, normaliseRules, sessionMessages } from '../../src/domain/message-rules';
import { isLocallyExpired, localExpiry, timerTier } from '../../src/domain/cart-rules';

const DEMO = readSellerFolder(path.resolve('sellers/demo'));

/** The demo with its seller and venues in a zone (the Auckland instant's venue is the demo moved there). */
const demoIn = (tz: string) =>
  ({
    ...DEMO,
    config: { ...DEMO.config, timezone: tz },
    catalog: { ...DEMO.catalog, venues: DEMO.catalog.venues.map((v) => ({ ...v, timezone: tz })) },
  }) as typeof DEMO;

const midnightOf = (instant: Date, tz: string) => [dateIn(instant, tz), timeIn(instant, tz)];

describe.each(AWKWARD_INSTANTS)('at $key: $name', (pinned) => {
  const now = new Date(pinned.iso);
  const tz = pinned.venueTz;
  const today = dateIn(now, tz);

  it("today, tomorrow and their bounds are the venue's", () => {
    expect(todayAt(tz, now)).toBe(today);
    expect(venueDate(now, tz)).toBe(today);
    expect(venueTime(now, tz)).toBe(timeIn(now, tz));
    for (const [filter, date] of [
      ['today', today],
      ['tomorrow', plusDays(today, 1)],
    ] as const) {
      const range = dateFilterRange(filter, now, tz);
      expect(midnightOf(range.start, tz)).toEqual([date, '00:00']);
      expect(midnightOf(range.end, tz)).toEqual([plusDays(date, 1), '00:00']);
      expect(dateIn(range.start.getTime() - 1, tz)).toBe(plusDays(date, -1));
      const { start, end } = venueDayRange(date, tz);
      expect([start.getTime(), end.getTime()]).toEqual([range.start.getTime(), range.end.getTime()]);
      // A day is 23, 24 or 25 hours long: the length of the venue's day, not a fixed 24.
      const hours = (end.getTime() - start.getTime()) / 3600_000;
      expect([23, 24, 25]).toContain(hours);
    }
    for (let n = -3; n <= 40; n++) expect(addDays(today, n)).toBe(plusDays(today, n));
  });

  it('the month grid puts every day of this month and the next under its weekday', () => {
    for (const date of [today, plusDays(today, 1), plusDays(today, 31)]) {
      const [year, month] = date.split('-').map(Number);
      const grid = calendarMonth({ year, month });
      const days = grid.weeks.flat().filter((c) => c.inMonth);
      expect(days).toHaveLength(new Date(Date.UTC(year, month, 0)).getUTCDate());
      for (const cell of days) expect(cell.weekday).toBe(weekdayOf(cell.date));
      expect(grid.weeks.flat().map((c) => c.date)).toEqual(Array.from({ length: 42 }, (_, i) => plusDays(grid.weeks[0][0].date, i)));
    }
  });

  it("the demo catalogue's schedules expand from the venue's today, at their local times", () => {
    const plan = planSellerFolder(demoIn(tz), now);
    for (const event of plan.events) {
      const schedule = event.source.schedules?.[0];
      if (!schedule) continue;
      expect(event.timezone).toBe(tz);
      // Every schedule's times (the conservation tour's pricier 14:00 is a schedule of its own, on the same days).
      const times = [...new Set(event.source.schedules!.flatMap((x) => startTimes(x.times)))].sort();
      const byDate = new Map<string, string[]>();
      for (const s of event.sessions) {
        const date = dateIn(s.start, tz);
        byDate.set(date, [...(byDate.get(date) ?? []), timeIn(s.start, tz)]);
        expect(s.end.getTime() - s.start.getTime(), `${event.source.name} lasts its minutes`).toBe(schedule.duration_minutes * 60_000);
      }
      const from = schedule.dates.from === '+1d' ? plusDays(today, 1) : today;
      const dates = [...byDate.keys()];
      expect(dates[0], `${event.source.name} starts on the venue's ${schedule.dates.from}`).toBe(
        Array.from({ length: 7 }, (_, i) => plusDays(from, i)).find(
          (d) => !schedule.weekdays || schedule.weekdays.includes(WEEKDAYS[weekdayOf(d)]),
        ),
      );
      expect(dates.at(-1)! <= plusDays(today, 119)).toBe(true);
      for (const [date, local] of byDate) {
        if (schedule.weekdays) expect(schedule.weekdays, `${event.source.name} on ${date}`).toContain(WEEKDAYS[weekdayOf(date)]);
        expect(local, `${event.source.name} on ${date}: every local time once`).toEqual(times);
      }
    }
  });

  it("session tabs and labels read the venue's local time, also on a daylight-saving day", () => {
    const plan = planSellerFolder(demoIn(tz), now);
    const ga = plan.events.find((e) => e.source.name === 'General Admission')!;
    const first = ga.sessions.find((s) => s.start.getTime() > now.getTime())!;
    const day = dateIn(first.start, tz);
    const sessions = ga.sessions
      .filter((s) => dateIn(s.start, tz) === day)
      .map((s, i) => ({ id: String(i), start_datetime: s.start.toISOString(), sold_out: false, availableCapacity: 10 }));
    expect(sessions).toHaveLength(16);
    expect(formatSessionTime(sessions[0].start_datetime, tz)).toBe('9:00 AM');
    expect(formatSessionTime(sessions[15].start_datetime, tz)).toBe('4:30 PM');
    const tabs = sessionTabs({ first_tab_threshold: '1200', second_tab_threshold: '2400' }, sessions, tz);
    expect(tabs.map((t) => t.sessions.length)).toEqual([6, 10, 0].slice(0, tabs.length));
  });

  it("message rules by weekday and time of day follow the venue's calendar and clock", () => {
    const rules = normaliseRules([
      { _rank: 0, triggers: { dateOrSession: { weekdays: ['sat', 'sun'] } }, actions: [{ type: 'date_annotation', text: 'Busy day' }] },
      {
        _rank: 1,
        triggers: { dateOrSession: { time_of_day: { start: '01:00', end: '02:00' } } },
        actions: [{ type: 'session_annotation', text: 'Night' }],
      },
      {
        _rank: 2,
        triggers: { dateOrSession: { dateInterval: { start: today, end: today } } },
        actions: [{ type: 'date_message', text: 'Today only' }],
      },
    ]);
    for (let n = 0; n < 14; n++) {
      const date = plusDays(today, n);
      const weekend = [0, 6].includes(weekdayOf(date));
      expect(dateMessages(rules, date).annotations).toEqual(weekend ? ['Busy day'] : []);
      expect(dateMessages(rules, date).tooltip).toEqual(n === 0 ? ['Today only'] : []);
    }
    // Both 01:30s of a fall-back night are 01:30 at the venue; the 01:30 a spring-forward night skips is not.
    for (const offsetMinutes of [0, 30, 60, 90, 120]) {
      const instant = new Date(now.getTime() + offsetMinutes * 60_000);
      const local = timeIn(instant, tz);
      expect(sessionMessages(rules, dateIn(instant, tz), local).annotations).toEqual(local >= '01:00' && local < '02:00' ? ['Night'] : []);
    }
  });

  it('a hold and its timer run their real length across a clock change', () => {
    const received = now.getTime();
    const expiry = localExpiry(900, received);
    expect(expiry - received).toBe(895_000);
    expect(isLocallyExpired(expiry, received + 894_000)).toBe(false);
    expect(isLocallyExpired(expiry, received + 896_000)).toBe(true);
    expect(timerTier(900)).toBe('info');
  });
});

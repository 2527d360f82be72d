import { describe, expect, it } from 'vitest';
import { venueDate as localDate, zonedTime } from '../../src/domain/dates';
import { expandSchedule, resolveDate, startTimes, type Schedule } from '../../src/domain/schedule';

const NY = 'America/New_York';
const iso = (d: Date) => d.toISOString();
const localTimes = (slots: Array<{ start: Date }>, tz = NY) =>
  slots.map((s) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(s.start),
  );

describe('schedule expansion', () => {
  it('expands an interval with an exclusive end: 09:00-17:00 every 30 minutes is 16 starts', () => {
    expect(startTimes({ start: '09:00', end: '17:00', interval_minutes: 30 })).toHaveLength(16);
    const slots = expandSchedule(
      {
        times: { start: '09:00', end: '17:00', interval_minutes: 30 },
        duration_minutes: 30,
        dates: { from: '2026-05-04', to: '2026-05-04' },
      },
      NY,
      new Date('2026-05-01T12:00:00Z'),
    );
    expect(localTimes(slots)).toEqual([
      '09:00',
      '09:30',
      '10:00',
      '10:30',
      '11:00',
      '11:30',
      '12:00',
      '12:30',
      '13:00',
      '13:30',
      '14:00',
      '14:30',
      '15:00',
      '15:30',
      '16:00',
      '16:30',
    ]);
    expect(iso(slots[0].start)).toBe('2026-05-04T13:00:00.000Z');
    expect(slots[0].end.getTime() - slots[0].start.getTime()).toBe(30 * 60_000);
  });

  it('sorts and de-duplicates a list of times, and rejects malformed ones', () => {
    expect(startTimes(['14:00', '09:30', '14:00'])).toEqual(['09:30', '14:00']);
    expect(() => startTimes(['9:30'])).toThrow(/HH:mm/);
    expect(() => startTimes({ start: '09:00', end: '10:00', interval_minutes: 0 })).toThrow(/interval/);
  });

  it('keeps only the listed weekdays', () => {
    // 2026-05-04 is a Monday; two weeks hold two Saturdays and two Sundays.
    const slots = expandSchedule(
      { weekdays: ['sat', 'sun'], times: ['10:00'], duration_minutes: 420, dates: { from: '2026-05-04', to: '2026-05-17' } },
      NY,
      new Date('2026-05-01T12:00:00Z'),
    );
    expect(slots.map((s) => localDate(s.start, NY))).toEqual(['2026-05-09', '2026-05-10', '2026-05-16', '2026-05-17']);
    expect(slots[0].end.getTime() - slots[0].start.getTime()).toBe(7 * 3_600_000);
  });

  it('counts relative dates from today in the venue timezone, not in UTC', () => {
    // 03:00 UTC on 7 March is still the evening of 6 March in New York.
    const now = new Date('2026-03-07T03:00:00Z');
    expect(resolveDate('+0d', now, NY)).toBe('2026-03-06');
    expect(resolveDate('+0d', now, 'UTC')).toBe('2026-03-07');
    expect(resolveDate('-1d', now, NY)).toBe('2026-03-05');
    const slots = expandSchedule({ times: ['10:00'], duration_minutes: 60, dates: { from: '+0d', to: '+2d' } }, NY, now);
    expect(slots.map((s) => localDate(s.start, NY))).toEqual(['2026-03-06', '2026-03-07', '2026-03-08']);
  });

  it('skips excluded dates, absolute or relative', () => {
    const now = new Date('2026-06-01T15:00:00Z');
    const schedule: Schedule = {
      times: ['10:00'],
      duration_minutes: 60,
      dates: { from: '+0d', to: '+4d' },
      exclude_dates: ['2026-06-02', '+4d'],
    };
    expect(expandSchedule(schedule, NY, now).map((s) => localDate(s.start, NY))).toEqual(['2026-06-01', '2026-06-03', '2026-06-04']);
  });

  it('keeps 09:00 local across the March change (EST -> EDT)', () => {
    const slots = expandSchedule(
      { times: ['09:00'], duration_minutes: 60, dates: { from: '2026-03-07', to: '2026-03-09' } },
      NY,
      new Date('2026-03-01T12:00:00Z'),
    );
    expect(slots.map((s) => iso(s.start))).toEqual(['2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z', '2026-03-09T13:00:00.000Z']);
    expect(localTimes(slots)).toEqual(['09:00', '09:00', '09:00']);
  });

  it('keeps 09:00 local across the November change (EDT -> EST)', () => {
    const slots = expandSchedule(
      {
        times: { start: '09:00', end: '10:00', interval_minutes: 30 },
        duration_minutes: 30,
        dates: { from: '2026-10-31', to: '2026-11-02' },
      },
      NY,
      new Date('2026-10-01T12:00:00Z'),
    );
    expect(slots.map((s) => iso(s.start))).toEqual([
      '2026-10-31T13:00:00.000Z',
      '2026-10-31T13:30:00.000Z',
      '2026-11-01T14:00:00.000Z',
      '2026-11-01T14:30:00.000Z',
      '2026-11-02T14:00:00.000Z',
      '2026-11-02T14:30:00.000Z',
    ]);
    expect(new Set(localTimes(slots))).toEqual(new Set(['09:00', '09:30']));
  });

  it('moves a time skipped by spring-forward past the gap, and takes the first of a repeated time', () => {
    expect(iso(zonedTime('2026-03-08', '02:30', NY))).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(iso(zonedTime('2026-11-01', '01:30', NY))).toBe('2026-11-01T05:30:00.000Z'); // 01:30 EDT, not EST
    expect(iso(zonedTime('2026-03-29', '09:00', 'Europe/London'))).toBe('2026-03-29T08:00:00.000Z');
    expect(iso(zonedTime('2026-07-01', '09:00', 'Asia/Kolkata'))).toBe('2026-07-01T03:30:00.000Z');
  });

  it('gives a session duration in real time, even across a change', () => {
    const [slot] = expandSchedule(
      { times: ['00:00'], duration_minutes: 24 * 60, dates: { from: '2026-03-08', to: '2026-03-08' } },
      NY,
      new Date('2026-03-01T12:00:00Z'),
    );
    expect(slot.end.getTime() - slot.start.getTime()).toBe(24 * 3_600_000);
  });

  it('rejects dates that are not on the calendar', () => {
    expect(() =>
      expandSchedule({ times: ['10:00'], duration_minutes: 60, dates: { from: '2026-02-30', to: '2026-03-02' } }, NY, new Date()),
    ).toThrow(/calendar/);
  });

  it('expands nothing when the range is reversed', () => {
    expect(expandSchedule({ times: ['10:00'], duration_minutes: 60, dates: { from: '+3d', to: '+1d' } }, NY, new Date())).toEqual([]);
  });
});

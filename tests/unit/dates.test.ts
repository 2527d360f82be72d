import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import {
  sessionLabel,
  addDays,
  datesInRange,
  daysBetween,
  isValidIsoDate,
  isValidTimeOfDay,
  longDateLabel,
  startOfVenueDay,
  venueDate,
  venueDateTime,
  venueDayRange,
  venueTime,
  weekdayOf,
  zonedTime,
} from '../../src/domain/dates';

dayjs.extend(utc);
dayjs.extend(timezone);

const NY = 'America/New_York';

describe('venue-timezone days', () => {
  it('a date is the venue-local date of an instant', () => {
    expect(venueDate(new Date('2026-03-11T03:30:00Z'), NY)).toBe('2026-03-10');
    expect(venueTime(new Date('2026-03-11T14:05:00Z'), NY)).toBe('10:05');
    expect(venueDateTime('2026-07-01T03:59:00Z', NY)).toEqual({ date: '2026-06-30', time: '23:59' });
    expect(venueTime('2026-07-01T04:00:00Z', NY)).toBe('00:00');
  });
  it('day boundaries follow daylight saving (23 and 25 hour days)', () => {
    expect(startOfVenueDay('2026-03-07', NY).toISOString()).toBe('2026-03-07T05:00:00.000Z');
    const spring = venueDayRange('2026-03-08', NY);
    expect((spring.end.getTime() - spring.start.getTime()) / 3_600_000).toBe(23);
    const autumn = venueDayRange('2026-11-01', NY);
    expect((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000).toBe(25);
    expect(startOfVenueDay('2026-06-01', 'Europe/London').toISOString()).toBe('2026-05-31T23:00:00.000Z');
  });
});

describe('local times next to a clock change', () => {
  it("a midnight just before a spring-forward change is that day's (Sydney, 6 October 2024: found by the midnight property)", () => {
    expect(startOfVenueDay('2024-10-06', 'Australia/Sydney').toISOString()).toBe('2024-10-05T14:00:00.000Z');
    expect(zonedTime('2024-10-06', '02:30', 'Australia/Sydney').toISOString()).toBe('2024-10-05T16:30:00.000Z'); // 03:30 AEDT
  });
  it('a repeated hour takes its first occurrence on either side of UTC', () => {
    expect(zonedTime('2026-11-01', '01:30', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z'); // EDT
    expect(zonedTime('2026-10-25', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z'); // CEST
    expect(zonedTime('2026-04-05', '02:30', 'Australia/Sydney').toISOString()).toBe('2026-04-04T15:30:00.000Z'); // AEDT
  });
  it('a skipped time moves on by the gap on either side of UTC', () => {
    expect(zonedTime('2026-03-08', '02:30', 'America/New_York').toISOString()).toBe('2026-03-08T07:30:00.000Z'); // 03:30 EDT
    expect(zonedTime('2026-03-29', '02:30', 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z'); // 03:30 CEST
  });
});

describe('calendar arithmetic and validation', () => {
  it('adds days across months and leap years', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-03-10', '2026-07-07')).toBe(119);
    expect(datesInRange('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(datesInRange('2026-03-02', '2026-03-01')).toEqual([]);
    expect(weekdayOf('2026-03-11')).toBe(3);
    expect(longDateLabel('2026-03-11')).toBe('Wednesday, March 11, 2026');
  });
  it('refuses impossible dates and times', () => {
    expect(isValidIsoDate('2026-02-28')).toBe(true);
    expect(isValidIsoDate('2028-02-29')).toBe(true);
    expect(isValidIsoDate('2026-02-29')).toBe(false);
    expect(isValidIsoDate('2026-02-30')).toBe(false);
    expect(isValidIsoDate('2026-13-01')).toBe(false);
    expect(isValidIsoDate('0000-00-00')).toBe(false);
    expect(isValidIsoDate('2026-3-1')).toBe(false);
    expect(isValidTimeOfDay('23:59')).toBe(true);
    expect(isValidTimeOfDay('24:00')).toBe(true);
    expect(isValidTimeOfDay('24:01')).toBe(false);
    expect(isValidTimeOfDay('9:00')).toBe(false);
  });
});

describe('sessionLabel (spec section 9: ddd, MMM D, YYYY [at] h:mm A, at the venue)', () => {
  it('formats in the venue time zone, whatever the browser zone', () => {
    expect(sessionLabel('2026-11-21T14:30:00Z', 'America/New_York')).toBe('Sat, Nov 21, 2026 at 9:30 AM');
    expect(sessionLabel('2026-11-21T14:30:00Z', 'Asia/Tokyo')).toBe('Sat, Nov 21, 2026 at 11:30 PM');
  });
  it('writes midnight and noon as 12 and crosses the date line with the zone', () => {
    expect(sessionLabel('2026-07-04T04:00:00Z', 'America/New_York')).toBe('Sat, Jul 4, 2026 at 12:00 AM');
    expect(sessionLabel('2026-07-04T16:05:00Z', 'America/New_York')).toBe('Sat, Jul 4, 2026 at 12:05 PM');
  });
  it('agrees with dayjs for every hour of a DST-changing day', () => {
    for (let h = 0; h < 30; h++) {
      const iso = new Date(Date.UTC(2026, 2, 8, h, 15)).toISOString();
      expect(sessionLabel(iso, 'America/New_York')).toBe(dayjs(iso).tz('America/New_York').format('ddd, MMM D, YYYY [at] h:mm A'));
    }
  });
});

describe('venueDateTime (offset read once per quarter hour)', () => {
  const zones = [
    'America/New_York',
    'Europe/London',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Pacific/Chatham',
    'UTC',
  ];
  const direct = (ms: number, tz: string) => {
    const p: Record<string, string> = {};
    for (const part of new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(new Date(ms)))
      p[part.type] = part.value;
    return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
  };
  it('matches Intl for any instant 1970-2100 in zones with DST, half- and quarter-hour offsets', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), fc.constantFrom(...zones), (ms, tz) => {
        expect(venueDateTime(new Date(ms), tz)).toEqual(direct(ms, tz));
      }),
      { numRuns: 3000 },
    );
  });
  it('matches Intl minute by minute across a DST change in New York and Lord Howe (30-minute shift)', () => {
    for (const [tz, start] of [
      ['America/New_York', Date.UTC(2026, 2, 8, 5)],
      ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 14)],
    ] as const) {
      for (let ms = start; ms < start + 4 * 3600_000; ms += 60_000) expect(venueDateTime(new Date(ms), tz)).toEqual(direct(ms, tz));
    }
  });
});

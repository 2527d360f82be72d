import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  availableEventsParams,
  dateFilterRange,
  eventFiltersToQuery,
  hasActiveFilters,
  parseEventFilters,
  type EventFilters,
} from '../../src/domain/event-filters';
import { offsetMinutes, startOfVenueDay } from '../../src/domain/dates';

const options = { categories: ['admission', 'exhibition', 'theatre'], metadataKeys: ['audience'] };
const q = (s: string) => new URLSearchParams(s);

describe('query -> filters', () => {
  it('reads every filter of the spec', () => {
    expect(
      parseEventFilters(q('date=tomorrow&category=theatre&time.start=10:00&time.end=14:30&metadata.audience=family'), options),
    ).toEqual({ date: 'tomorrow', category: 'theatre', timeStart: '10:00', timeEnd: '14:30', metadata: { audience: 'family' } });
  });
  it('ignores values the seller does not offer and malformed ones', () => {
    expect(parseEventFilters(q('date=yesterday&category=circus&time.start=25:00&time.end=9:00&metadata.colour=red'), options)).toEqual({
      metadata: {},
    });
  });
  it('round-trips through the query', () => {
    const filters: EventFilters = { date: 'today', category: 'exhibition', timeStart: '09:00', metadata: { audience: 'adults' } };
    expect(parseEventFilters(eventFiltersToQuery(filters), options)).toEqual(filters);
    expect(eventFiltersToQuery(filters).toString()).toBe('date=today&category=exhibition&time.start=09%3A00&metadata.audience=adults');
  });
  it('round-trips any valid filters (property)', () => {
    const time = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        fc.record({
          date: fc.option(fc.constantFrom('today' as const, 'tomorrow' as const), { nil: undefined }),
          category: fc.option(fc.constantFrom(...options.categories), { nil: undefined }),
          timeStart: fc.option(time, { nil: undefined }),
          timeEnd: fc.option(time, { nil: undefined }),
          metadata: fc.option(fc.string({ minLength: 1 }), { nil: undefined }).map((v) => (v ? { audience: v } : {})),
        }),
        (raw) => {
          const filters = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)) as unknown as EventFilters;
          expect(parseEventFilters(q(eventFiltersToQuery(filters).toString()), options)).toEqual(filters);
        },
      ),
    );
  });
  it('knows when any filter is set', () => {
    expect(hasActiveFilters({ metadata: {} })).toBe(false);
    expect(hasActiveFilters({ metadata: { audience: 'x' } })).toBe(true);
    expect(hasActiveFilters({ timeEnd: '10:00', metadata: {} })).toBe(true);
  });
});

describe('date filter -> seller-timezone day range', () => {
  const tz = 'America/New_York';
  it('today in New York is midnight to midnight EST', () => {
    // 03:30 UTC on 15 Jan is still 14 Jan in New York.
    const range = dateFilterRange('today', new Date('2026-01-15T03:30:00Z'), tz);
    expect(range.start.toISOString()).toBe('2026-01-14T05:00:00.000Z');
    expect(range.end.toISOString()).toBe('2026-01-15T05:00:00.000Z');
  });
  it('tomorrow in summer uses EDT', () => {
    const range = dateFilterRange('tomorrow', new Date('2026-07-04T12:00:00Z'), tz);
    expect(range.start.toISOString()).toBe('2026-07-05T04:00:00.000Z');
    expect(range.end.toISOString()).toBe('2026-07-06T04:00:00.000Z');
  });
  it('a day with a DST change is 23 or 25 hours long', () => {
    const spring = dateFilterRange('today', new Date('2026-03-08T15:00:00Z'), tz);
    expect(spring.start.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3600_000);
    const autumn = dateFilterRange('tomorrow', new Date('2026-10-31T15:00:00Z'), tz);
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3600_000);
  });
  it('works east of UTC too', () => {
    const range = dateFilterRange('today', new Date('2026-05-01T22:30:00Z'), 'Asia/Tokyo');
    expect(range.start.toISOString()).toBe('2026-05-01T15:00:00.000Z');
  });
  it('local midnight is always 00:00 on the wall clock (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2040 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        fc.constantFrom('America/New_York', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata', 'UTC'),
        (year, month, day, zone) => {
          const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const start = startOfVenueDay(iso, zone);
          const wall = new Date(start.getTime() + offsetMinutes(start, zone) * 60000);
          expect([wall.getUTCFullYear(), wall.getUTCMonth() + 1, wall.getUTCDate(), wall.getUTCHours(), wall.getUTCMinutes()]).toEqual([
            year,
            month,
            day,
            0,
            0,
          ]);
        },
      ),
    );
  });
});

describe('filters -> GET events/available params', () => {
  it('sends category, date range, times and metadata', () => {
    const params = availableEventsParams(
      { date: 'today', category: 'theatre', timeStart: '10:00', timeEnd: '12:00', metadata: { audience: 'family' } },
      new Date('2026-01-15T17:00:00Z'),
      'America/New_York',
    );
    expect(params).toEqual({
      category: 'theatre',
      'start_datetime._gte': '2026-01-15T05:00:00.000Z',
      'start_datetime._lt': '2026-01-16T05:00:00.000Z',
      'time.start': '10:00',
      'time.end': '12:00',
      'metadata.audience': 'family',
    });
  });
  it('sends nothing for no filters', () => {
    expect(availableEventsParams({ metadata: {} }, new Date(), 'UTC')).toEqual({});
  });
});

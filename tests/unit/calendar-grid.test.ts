import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calendarMonth, compareMonths, shiftMonth } from '../../src/domain/calendar-grid';

describe('calendar grid', () => {
  it('lays out February 2026 (starts on a Sunday) from 1 Feb to 14 Mar', () => {
    const grid = calendarMonth({ year: 2026, month: 2 });
    expect(grid.weeks).toHaveLength(6);
    expect(grid.weeks[0][0]).toEqual({ date: '2026-02-01', day: 1, inMonth: true, weekday: 0 });
    expect(grid.weeks[3][6].date).toBe('2026-02-28');
    expect(grid.weeks[4][0]).toMatchObject({ date: '2026-03-01', inMonth: false });
    expect(grid.weeks[5][6].date).toBe('2026-03-14');
  });
  it('pads a month that starts mid-week with the previous month', () => {
    const grid = calendarMonth({ year: 2026, month: 1 }); // 1 Jan 2026 is a Thursday
    expect(grid.weeks[0].map((c) => c.day)).toEqual([28, 29, 30, 31, 1, 2, 3]);
    expect(grid.weeks[0].slice(0, 4).every((c) => !c.inMonth)).toBe(true);
    expect(grid.weeks[0][4]).toMatchObject({ date: '2026-01-01', inMonth: true, weekday: 4 });
  });
  it('handles leap years and year ends', () => {
    const feb = calendarMonth({ year: 2028, month: 2 });
    expect(
      feb.weeks
        .flat()
        .filter((c) => c.inMonth)
        .map((c) => c.day)
        .at(-1),
    ).toBe(29);
    const dec = calendarMonth({ year: 2026, month: 12 });
    expect(dec.next).toEqual({ year: 2027, month: 1 });
    expect(calendarMonth({ year: 2026, month: 1 }).prev).toEqual({ year: 2025, month: 12 });
  });
  it('stops prev and next at the first and last month', () => {
    const bounds = { first: { year: 2026, month: 3 }, last: { year: 2026, month: 6 } };
    expect(calendarMonth({ year: 2026, month: 3 }, bounds).prev).toBeNull();
    expect(calendarMonth({ year: 2026, month: 3 }, bounds).next).toEqual({ year: 2026, month: 4 });
    expect(calendarMonth({ year: 2026, month: 6 }, bounds).next).toBeNull();
    expect(calendarMonth({ year: 2026, month: 6 }, bounds).prev).toEqual({ year: 2026, month: 5 });
    const single = { first: { year: 2026, month: 3 }, last: { year: 2026, month: 3 } };
    expect(calendarMonth({ year: 2026, month: 3 }, single)).toMatchObject({ prev: null, next: null });
  });
  it('rejects a month outside 1-12', () => {
    expect(() => calendarMonth({ year: 2026, month: 13 })).toThrow(RangeError);
  });
  it('every grid is 42 consecutive days, Sunday first, holding the whole month (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1900, max: 2200 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const cells = calendarMonth({ year, month }).weeks.flat();
        expect(cells).toHaveLength(42);
        const times = cells.map((c) => Date.parse(`${c.date}T00:00:00Z`));
        times.forEach((t, i) => i > 0 && expect(t - times[i - 1]).toBe(86_400_000));
        expect(new Date(times[0]).getUTCDay()).toBe(0);
        const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
        expect(cells.filter((c) => c.inMonth)).toHaveLength(daysInMonth);
        expect(cells[0].inMonth ? cells[0].day : 1).toBe(1);
      }),
    );
  });
  it('shiftMonth and compareMonths agree', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 2200 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: -50, max: 50 }),
        (year, month, by) => {
          const shifted = shiftMonth({ year, month }, by);
          expect(shifted.month).toBeGreaterThanOrEqual(1);
          expect(shifted.month).toBeLessThanOrEqual(12);
          expect(compareMonths(shifted, { year, month })).toBe(by);
        },
      ),
    );
  });
});

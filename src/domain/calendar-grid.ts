/** The date picker's month grid (spec section 9: 6 weeks by 7 days), weeks starting on Sunday. */

export interface YearMonth {
  year: number;
  month: number;
} // month 1-12

export interface CalendarCell {
  /** ISO date 'YYYY-MM-DD' */
  date: string;
  day: number;
  /** false for the leading and trailing days of the neighbouring months */
  inMonth: boolean;
  /** 0 = Sunday */
  weekday: number;
}

export interface CalendarMonth {
  month: YearMonth;
  weeks: CalendarCell[][];
  prev: YearMonth | null;
  next: YearMonth | null;
}

export const WEEKS = 6;
export const DAYS_PER_WEEK = 7;

export function compareMonths(a: YearMonth, b: YearMonth): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

export function shiftMonth(m: YearMonth, by: number): YearMonth {
  const index = m.year * 12 + (m.month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The 42 days shown for a month, plus the months prev/next may go to. Navigation stops at the first and
 *  last month of `bounds` (the first and last month with dates), so prev and next are null there. */
export function calendarMonth(month: YearMonth, bounds?: { first?: YearMonth; last?: YearMonth }): CalendarMonth {
  if (!Number.isInteger(month.month) || month.month < 1 || month.month > 12) throw new RangeError(`bad month ${month.month}`);
  const firstOfMonth = new Date(Date.UTC(month.year, month.month - 1, 1));
  const gridStart = Date.UTC(month.year, month.month - 1, 1 - firstOfMonth.getUTCDay());
  const weeks: CalendarCell[][] = [];
  for (let w = 0; w < WEEKS; w++) {
    const week: CalendarCell[] = [];
    for (let d = 0; d < DAYS_PER_WEEK; d++) {
      const day = new Date(gridStart + (w * DAYS_PER_WEEK + d) * 86_400_000);
      week.push({
        date: `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`,
        day: day.getUTCDate(),
        inMonth: day.getUTCMonth() === month.month - 1,
        weekday: d,
      });
    }
    weeks.push(week);
  }
  const prev = shiftMonth(month, -1);
  const next = shiftMonth(month, 1);
  return {
    month,
    weeks,
    prev: bounds?.first && compareMonths(prev, bounds.first) < 0 ? null : prev,
    next: bounds?.last && compareMonths(next, bounds.last) > 0 ? null : next,
  };
}

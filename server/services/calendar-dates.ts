import { LRUCache } from 'lru-cache';
import { longDateLabel, startOfVenueDay } from '../../src/domain/dates';

/**
 * dates.ts helpers a calendar answer calls for each of its 120 or so days, kept on the server (the storefront calls
 * them a few times a page, and its first load has no bytes to spare: bench/budget.json). Both are pure functions of
 * their arguments; each cache keeps the MAX most recently used.
 */
const MAX = 8192;

function kept<T extends string | number>(compute: (key: string) => T): (key: string) => T {
  const values = new LRUCache<string, T>({ max: MAX });
  return (key) => {
    let value = values.get(key);
    if (value === undefined) values.set(key, (value = compute(key)));
    return value;
  };
}

/** longDateLabel(): Intl formatting was the dearest part of a calendar row. */
export const keptLongDateLabel = kept(longDateLabel);

const dayStarts = kept((key) => {
  const [tz, date] = key.split('|');
  return startOfVenueDay(date, tz).getTime();
});

/** startOfVenueDay() (a new Date each call): three Intl offset reads a day, 121 a 120-day calendar. */
export const keptStartOfVenueDay = (date: string, tz: string): Date => new Date(dayStarts(`${tz}|${date}`));

import type { CalendarDayRow } from '../contract/catalogue';
import { formatMoney } from './pricing';
import { moneyToMinor } from './quantity';

/** A calendar day as the date buttons and the month grid show it (spec section 2). */

const UTC_DAY = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
};
// Made on first use, as src/domain/dates.ts's formatters, not in the task that evaluates the page's scripts.
let shortFormat: Intl.DateTimeFormat | undefined;

/** 'Sun, Nov 22' for a venue-local 'YYYY-MM-DD' (the date is already the venue's: format it as UTC). */
export function formatShortDate(date: string): string {
  shortFormat ??= new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
  return shortFormat.format(UTC_DAY(date));
}

export function isDayAvailable(day: CalendarDayRow | undefined): boolean {
  return !!day && day.enabled && day.status === 'available';
}

/** The price a day shows: the event's primary ticket type's (price_display names it, e.g. Adult) when there is one,
 *  which the server sends as `price`; else the lowest (`price` equals `min_price` then). */
export function dayPrice(day: CalendarDayRow): number | null {
  return moneyToMinor(day.price ?? day.min_price);
}

/** 'From $20.00' from a calendar row: its price prefix (price_display's primary prefix) and price. */
export function dayPriceText(day: CalendarDayRow, currency: string): string | null {
  const minor = dayPrice(day);
  if (minor === null) return null;
  const price = formatMoney(minor, currency);
  return day.pricePrefix ? `${day.pricePrefix} ${price}` : price;
}

import type { CalendarDayRow } from '../contract/catalogue';
import { formatMoney } from './pricing';
import { moneyToMinor } from './quantity';

/** A calendar day as the date buttons and the month grid show it (spec section 2). */

const UTC_DAY = (date: string) => {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
};
const shortFormat = new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 'Sun, Nov 22' for a venue-local 'YYYY-MM-DD' (the date is already the venue's: format it as UTC). */
export function formatShortDate(date: string): string {
  return shortFormat.format(UTC_DAY(date));
}

export function isDayAvailable(day: CalendarDayRow | undefined): boolean {
  return !!day && day.enabled && day.status === 'available';
}

/** 'From $12.00' from a calendar row: its price prefix and lowest price. */
export function dayPriceText(day: CalendarDayRow, currency: string): string | null {
  const minor = moneyToMinor(day.min_price ?? day.price);
  if (minor === null) return null;
  const price = formatMoney(minor, currency);
  return day.pricePrefix ? `${day.pricePrefix} ${price}` : price;
}

import { describe, expect, it } from 'vitest';
import translation from '../../locales/en/translation.json';
import type { CalendarDayRow } from '../../src/contract/catalogue';
import { dayPrice, dayPriceText } from '../../src/domain/calendar-days';
import { createI18n } from '../../src/i18n';

const t = (() => {
  const i18n = createI18n(translation);
  return i18n.t.bind(i18n);
})();

const day = (over: Partial<CalendarDayRow>): CalendarDayRow => ({
  date: '2026-03-11',
  enabled: true,
  status: 'available',
  price: '20.00',
  min_price: '12.00',
  min_price_fees: { outside: null },
  pricePrefix: 'From',
  ...over,
});

describe('what a date shows (issue 16 findings)', () => {
  it("a date shows the primary type's price with the primary prefix, not the cheapest child price", () => {
    // General Admission names Adult ($20) as primary with the prefix 'From'; Child is $12.
    expect(dayPriceText(day({}), 'USD')).toBe('From $20.00');
    expect(dayPrice(day({}))).toBe(2000);
  });

  it('without a primary type the server sends the lowest price as price, and that is shown', () => {
    expect(dayPriceText(day({ price: '12.00', pricePrefix: null }), 'USD')).toBe('$12.00');
    expect(dayPriceText(day({ price: null, min_price: null }), 'USD')).toBeNull();
  });
});

describe('counted texts (issue 16 findings)', () => {
  it("says 'Up to 1 ticket per order' and 'Minimum 1 ticket', not '1 tickets'", () => {
    expect(t('quantity.maximum', { count: 1 })).toBe('Up to 1 ticket per order');
    expect(t('quantity.maximum', { count: 8 })).toBe('Up to 8 tickets per order');
    expect(t('quantity.minimum', { count: 1 })).toBe('Minimum 1 ticket');
    expect(t('quantity.minimum', { count: 2 })).toBe('Minimum 2 tickets');
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  EXTENSION_SECONDS,
  PER_TYPE_CAP,
  expiresIn,
  grandTotals,
  groupQuantityError,
  isFlexiblePrice,
  isLocallyExpired,
  localExpiry,
  outsideFees,
  outstanding,
  shouldOfferExtension,
  splitName,
  ticketPrice,
  timerTier,
  withinFlexibleBounds,
} from '../../src/domain/cart-rules';

describe('fees and totals', () => {
  it('adds fixed fees and rounds percent fees per ticket', () => {
    expect(outsideFees(2500, [{ name: 'Service', fixed: 150 }])).toEqual({ fixed: 150, percent: 0 });
    expect(outsideFees(1500, [{ name: 'Facility', percent: 10 }])).toEqual({ fixed: 0, percent: 150 });
    expect(
      outsideFees(999, [
        { name: 'Tax', percent: 2.5 },
        { name: 'Booking', fixed: 99 },
      ]),
    ).toEqual({ fixed: 99, percent: 25 });
    expect(outsideFees(1000, [])).toEqual({ fixed: 0, percent: 0 });
    expect(outsideFees(1000, null)).toEqual({ fixed: 0, percent: 0 });
  });

  it('computes grand totals with outstanding floored at 0', () => {
    const lines = [
      { adjusted_value: 2500, fee_fixed: 150, fee_percent: 0 },
      { adjusted_value: 2500, fee_fixed: 150, fee_percent: 0 },
      { adjusted_value: 1500, fee_fixed: 0, fee_percent: 150 },
    ];
    expect(grandTotals(lines)).toEqual({
      total_before_cartmod_price: 6500,
      total_fee_fixed_outside: 300,
      total_fee_percent_outside: 150,
      total_cartmod_amount: 0,
      total_payments: 0,
      total_outstanding: 6950,
    });
    expect(grandTotals(lines, 6950).total_outstanding).toBe(0);
    expect(grandTotals(lines, 10_000).total_outstanding).toBe(0);
    expect(grandTotals(lines, 1000, 500).total_outstanding).toBe(6950 - 500 - 1000);
    expect(grandTotals([]).total_outstanding).toBe(0);
  });

  it('outstanding is never negative and never more than the amount due', () => {
    fc.assert(
      fc.property(fc.nat(1e7), fc.nat(1e7), (due, paid) => {
        const o = outstanding(due, paid);
        return o >= 0 && o <= due && (paid >= due ? o === 0 : o === due - paid);
      }),
    );
  });
});

describe('prices', () => {
  const fixed = { price: 2500, price_min: null, price_max: null, discounted_price: null };
  const flexible = { price: 0, price_min: 100, price_max: 100000, discounted_price: null };
  it('uses the list price plus the session increase, and the discounted price when present', () => {
    expect(ticketPrice(fixed, 0)).toEqual({ face_value: 2500, adjusted_value: 2500 });
    expect(ticketPrice(fixed, 300)).toEqual({ face_value: 2800, adjusted_value: 2800 });
    expect(ticketPrice({ ...fixed, discounted_price: 2000 }, 0)).toEqual({ face_value: 2500, adjusted_value: 2000 });
    expect(ticketPrice(fixed, 0, 1)).toEqual({ face_value: 2500, adjusted_value: 2500 });
  });
  it('takes a flexible amount only within min and max (both set)', () => {
    expect(isFlexiblePrice(flexible)).toBe(true);
    expect(isFlexiblePrice({ ...flexible, price_max: null })).toBe(false);
    expect(withinFlexibleBounds(flexible, 100)).toBe(true);
    expect(withinFlexibleBounds(flexible, 100000)).toBe(true);
    expect(withinFlexibleBounds(flexible, 99)).toBe(false);
    expect(withinFlexibleBounds(flexible, 100001)).toBe(false);
    expect(withinFlexibleBounds(flexible, 150.5)).toBe(false);
    expect(withinFlexibleBounds(fixed, 2500)).toBe(false);
    expect(ticketPrice(flexible, 300, 1234)).toEqual({ face_value: 1234, adjusted_value: 1234 });
  });
});

describe('quantities per order', () => {
  it('applies min and max per group; no tickets is always fine', () => {
    expect(groupQuantityError(0, 2, 4)).toBeNull();
    expect(groupQuantityError(1, 2, 4)).toBe('min_tickets_per_order_not_met');
    expect(groupQuantityError(2, 2, 4)).toBeNull();
    expect(groupQuantityError(4, 2, 4)).toBeNull();
    expect(groupQuantityError(5, 2, 4)).toBe('max_tickets_per_order_exceeded');
    expect(groupQuantityError(500, 0, -1)).toBeNull();
    expect(PER_TYPE_CAP).toBe(1000);
  });
});

describe('names', () => {
  it('splits trimmed input: last word is the last name; one word is both', () => {
    expect(splitName('  Ada   King Lovelace ')).toEqual({ first_name: 'Ada King', last_name: 'Lovelace' });
    expect(splitName('Cher')).toEqual({ first_name: 'Cher', last_name: 'Cher' });
    expect(() => splitName('   ')).toThrow('Input must not be empty.');
    expect(() => splitName('')).toThrow('Input must not be empty.');
  });
});

describe('expiry timer', () => {
  it('is hidden from 20 minutes, then info above 300 s, warning 120 to 300 s, error below 120 s', () => {
    expect(timerTier(1200)).toBe('hidden');
    expect(timerTier(1199)).toBe('info');
    expect(timerTier(301)).toBe('info');
    expect(timerTier(300)).toBe('warning');
    expect(timerTier(120)).toBe('warning');
    expect(timerTier(119)).toBe('error');
    expect(timerTier(10)).toBe('error');
  });
  it('has the 30 s tier only with the extend-timer flag', () => {
    expect(timerTier(29, true)).toBe('critical');
    expect(timerTier(30, true)).toBe('error');
    expect(timerTier(29, false)).toBe('error');
  });
  it('local expiry is expires_in minus 5 s from when the response arrived', () => {
    expect(localExpiry(900, 1_000_000)).toBe(1_000_000 + 895_000);
    expect(isLocallyExpired(localExpiry(10, 0), 5_001)).toBe(true);
    expect(isLocallyExpired(localExpiry(10, 0), 4_999)).toBe(false);
  });
  it('offers the one 2-minute extension at 60 s or less, unless declined or used', () => {
    expect(EXTENSION_SECONDS).toBe(120);
    expect(shouldOfferExtension(61, false, false)).toBe(false);
    expect(shouldOfferExtension(60, false, false)).toBe(true);
    expect(shouldOfferExtension(60, true, false)).toBe(false);
    expect(shouldOfferExtension(60, false, true)).toBe(false);
    expect(shouldOfferExtension(0, false, false)).toBe(false);
  });
  it('expires_in counts whole seconds down to 0', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(expiresIn(new Date('2026-01-01T00:15:00Z'), now)).toBe(900);
    expect(expiresIn(new Date('2025-12-31T23:59:00Z'), now)).toBe(0);
    expect(expiresIn(null, now)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  cheapest,
  displayPrice,
  effectivePrice,
  feeAmount,
  formatMoney,
  isFlexiblePrice,
  outsideFees,
  outstanding,
  toDecimal,
  totalOutsideFees,
} from '../../src/domain/pricing';

describe('fees', () => {
  it('a fee is fixed plus a percent of the price, rounded to the minor unit', () => {
    expect(feeAmount(2500, { name: 'Service', fixed: 150 })).toBe(150);
    expect(feeAmount(1500, { name: 'Service', percent: 10 })).toBe(150);
    expect(feeAmount(1999, { name: 'Service', percent: 2.5 })).toBe(50);
    expect(feeAmount(1000, { name: 'Both', fixed: 25, percent: 5 })).toBe(75);
    expect(
      outsideFees(2000, [
        { name: 'A', fixed: 100 },
        { name: 'B', percent: 10 },
      ]),
    ).toEqual([
      { name: 'A', fee: 100 },
      { name: 'B', fee: 200 },
    ]);
    expect(
      totalOutsideFees(2000, [
        { name: 'A', fixed: 100 },
        { name: 'B', percent: 10 },
      ]),
    ).toBe(300);
    expect(totalOutsideFees(2000, null)).toBe(0);
  });
});

describe('prices', () => {
  const adult = { price: 2500, outside_fees: [{ name: 'Service', fixed: 150 }] };
  const senior = { price: 2000, discounted_price: 1800 };
  it('the discounted price is what is paid, plus any session increase', () => {
    expect(effectivePrice(senior)).toBe(1800);
    expect(effectivePrice(senior, 500)).toBe(2300);
    expect(effectivePrice(adult, 500)).toBe(3000);
  });
  it('fees are added only when the seller advertises prices including fees', () => {
    expect(displayPrice(adult, { includeFees: false })).toBe(2500);
    expect(displayPrice(adult, { includeFees: true })).toBe(2650);
  });
  it('flexible when both min and max are set; cheapest by effective price', () => {
    expect(isFlexiblePrice({ price: 0, price_min: 500, price_max: 100000 })).toBe(true);
    expect(isFlexiblePrice({ price: 0, price_min: 500, price_max: null })).toBe(false);
    expect(cheapest([adult, senior])).toBe(senior);
    expect(cheapest([])).toBeNull();
  });
  it('outstanding is amount due minus gift card balance, floored at 0', () => {
    expect(outstanding(5000, 2000)).toBe(3000);
    expect(outstanding(5000, 9000)).toBe(0);
    expect(outstanding(5000, -10)).toBe(5000);
  });
  it('formats for the wire and for people', () => {
    expect(toDecimal(1250)).toBe('12.50');
    expect(toDecimal(5)).toBe('0.05');
    expect(toDecimal(-150)).toBe('-1.50');
    expect(formatMoney(1250, 'USD')).toBe('$12.50');
    expect(formatMoney(1250, 'XXXX')).toBe('12.50 XXXX');
  });
});

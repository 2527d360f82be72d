import { describe, expect, it } from 'vitest';
import { amountDueNow, clampPayment, openParts, partStatus } from '../../src/domain/payment-schedule';
import { chosenAmount } from '../../src/screens/checkout/PaymentSchedule';

const NOW = new Date('2026-11-25T12:00:00Z');
const parts = [
  { id: 'c', due_on: '2027-01-25T12:00:00Z', amount: 2000 },
  { id: 'a', due_on: '2026-11-24T12:00:00Z', amount: 1300 },
  { id: 'b', due_on: '2026-12-05T12:00:00Z', amount: 2000 },
];

describe('payment plans', () => {
  it('a part is Upcoming while its due time minus one second is ahead, else Overdue', () => {
    expect(partStatus('2026-11-25T12:00:01.001Z', NOW)).toBe('upcoming');
    expect(partStatus('2026-11-25T12:00:01Z', NOW)).toBe('overdue');
    expect(partStatus('2026-11-20T00:00:00Z', NOW)).toBe('overdue');
  });
  it('payments go to the parts in due order; what is left of each stays open', () => {
    expect(openParts(parts, 0).map((p) => [p.id, p.left])).toEqual([
      ['a', 1300],
      ['b', 2000],
      ['c', 2000],
    ]);
    expect(openParts(parts, 2000).map((p) => [p.id, p.left])).toEqual([
      ['b', 1300],
      ['c', 2000],
    ]);
    expect(openParts(parts, 5300)).toEqual([]);
  });
  it('due now is the overdue parts and the next upcoming one, never more than is owed', () => {
    expect(amountDueNow(parts, 0, NOW, 5300)).toBe(3300);
    expect(amountDueNow(parts, 3300, NOW, 2000)).toBe(2000);
    expect(amountDueNow(parts, 0, NOW, 1000)).toBe(1000);
    expect(amountDueNow([], 0, NOW, 5300)).toBe(0);
  });
  it('another amount is kept between what is due and the balance', () => {
    expect(clampPayment(100, 3300, 5300)).toBe(3300);
    expect(clampPayment(9900, 3300, 5300)).toBe(5300);
    expect(clampPayment(4000, 3300, 5300)).toBe(4000);
    expect(chosenAmount('due', '', 3300, 5300)).toBe(3300);
    expect(chosenAmount('outstanding', '', 3300, 5300)).toBe(5300);
    expect(chosenAmount('other', '40,00', 3300, 5300)).toBe(4000);
    expect(chosenAmount('due', '', 5300, 5300)).toBe(5300);
  });
});

describe('card amounts', () => {
  it('a card takes 0.50 (GBP 0.30) to 999,999.99; the server refusal reads as the spec sentence', async () => {
    const { cardAmountSupported, classifyCheckoutError } = await import('../../src/domain/checkout-rules');
    expect([49, 50, 99_999_999, 100_000_000].map((a) => cardAmountSupported(a, 'USD'))).toEqual([false, true, true, false]);
    expect([29, 30].map((a) => cardAmountSupported(a, 'GBP'))).toEqual([false, true]);
    expect(classifyCheckoutError({ status: 400, _code: 'payment_not_supported', _context: 'checkout' })).toEqual({ kind: 'not_supported' });
    expect(classifyCheckoutError({ status: 403, _code: 'rule_blocks_checkout', _context: 'checkout' })).toEqual({ kind: 'blocked' });
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  availableCapacity,
  availableLabel,
  fewTicketsLeft,
  groupCap,
  isSoldOut,
  minAvailable,
  quantitiesFit,
  salesOpen,
  sumAvailable,
} from '../../src/domain/availability';

describe('availableCapacity (capacity + oversell - used; -1 unlimited; never below 0)', () => {
  it('computes the remaining places', () => {
    expect(availableCapacity({ capacity: 10, oversell_capacity: 2, used_capacity: 5 })).toBe(7);
    expect(availableCapacity({ capacity: 2, oversell_capacity: 0, used_capacity: 2 })).toBe(0);
    expect(availableCapacity({ capacity: 2, oversell_capacity: 0, used_capacity: 9 })).toBe(0);
    expect(availableCapacity({ capacity: -1, oversell_capacity: 0, used_capacity: 500 })).toBe(-1);
    expect(isSoldOut({ capacity: 3, oversell_capacity: 1, used_capacity: 4 })).toBe(true);
    expect(isSoldOut({ capacity: -1, oversell_capacity: 0, used_capacity: 4 })).toBe(false);
  });
  it('is never below -1 and -1 only when unlimited', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: 1000 }), fc.nat(100), fc.nat(2000), (capacity, oversell, used) => {
        const a = availableCapacity({ capacity, oversell_capacity: oversell, used_capacity: used });
        expect(a >= 0 || (a === -1 && capacity < 0)).toBe(true);
      }),
    );
  });
});

describe('combining availabilities', () => {
  it('minAvailable lets any limit win over unlimited', () => {
    expect(minAvailable(-1, 5, 3)).toBe(3);
    expect(minAvailable(-1, -1)).toBe(-1);
    expect(minAvailable(0, -1)).toBe(0);
    expect(sumAvailable([1, 2])).toBe(3);
    expect(sumAvailable([1, -1])).toBe(-1);
  });
  it('groupCap is the min of max per order, group remaining and session availableCapacity', () => {
    expect(groupCap(4, 10, 6)).toBe(4);
    expect(groupCap(-1, 10, 6)).toBe(6);
    expect(groupCap(-1, -1, -1)).toBe(-1);
    expect(groupCap(8, 2, -1)).toBe(2);
  });
});

describe('labels of spec section 9', () => {
  it('sold out, else the count below the threshold, else available; empty with no threshold', () => {
    expect(availableLabel(0, 10)).toBe('sold_out');
    expect(availableLabel(4, 10)).toBe(4);
    expect(availableLabel(10, 10)).toBe('available');
    expect(availableLabel(-1, 10)).toBe('available');
    expect(availableLabel(4, null)).toBe('');
    expect(availableLabel(0, null)).toBe('sold_out');
  });
  it('few tickets left below the threshold (default 10), not when sold out or unlimited', () => {
    expect(fewTicketsLeft(9)).toBe(true);
    expect(fewTicketsLeft(10)).toBe(false);
    expect(fewTicketsLeft(0)).toBe(false);
    expect(fewTicketsLeft(-1)).toBe(false);
    expect(fewTicketsLeft(3, 3)).toBe(false);
  });
});

describe('salesOpen', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  it('opens at sales_start and closes at sales_end', () => {
    expect(salesOpen({ sales_start: null, sales_end: null }, now)).toBe(true);
    expect(salesOpen({ sales_start: '2026-03-10T12:00:00Z', sales_end: null }, now)).toBe(true);
    expect(salesOpen({ sales_start: '2026-03-10T12:00:01Z', sales_end: null }, now)).toBe(false);
    expect(salesOpen({ sales_start: null, sales_end: '2026-03-10T12:00:00Z' }, now)).toBe(false);
    expect(salesOpen({ sales_start: null, sales_end: new Date('2026-03-11T00:00:00Z') }, now)).toBe(true);
  });
});

describe('quantitiesFit', () => {
  const supply = new Map([
    ['adult', { available: 5, max_tickets_per_order: 4 }],
    ['members', { available: -1, max_tickets_per_order: -1 }],
    ['full', { available: 0, max_tickets_per_order: -1 }],
  ]);
  const d = (id: string, quantity: number, countsTowardSession = true) => ({ ticket_group_id: id, quantity, countsTowardSession });
  it('fits within group caps and session capacity', () => {
    expect(quantitiesFit([d('adult', 2), d('members', 1)], supply, 3)).toBeNull();
    expect(quantitiesFit([d('adult', 2), d('members', 2)], supply, 3)).toEqual({ reason: 'session_capacity_exceeded' });
    expect(quantitiesFit([d('adult', 5)], supply, -1)).toEqual({ reason: 'max_tickets_per_order_exceeded', ticket_group_id: 'adult' });
    expect(quantitiesFit([d('full', 1)], supply, -1)).toEqual({ reason: 'ticket_group_sold_out', ticket_group_id: 'full' });
    expect(quantitiesFit([d('unknown', 1)], supply, -1)).toEqual({ reason: 'ticket_group_sold_out', ticket_group_id: 'unknown' });
  });
  it('adds lines of one group before checking it, and skips groups excluded from event capacity', () => {
    const small = new Map([['g', { available: 3, max_tickets_per_order: -1 }]]);
    expect(quantitiesFit([d('g', 2), d('g', 2)], small, -1)).toEqual({ reason: 'ticket_group_capacity_exceeded', ticket_group_id: 'g' });
    expect(quantitiesFit([d('members', 10, false)], supply, 1)).toBeNull();
  });
});

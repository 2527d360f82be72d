import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  clampToCap,
  decrementTo,
  effectiveMinimum,
  exactlyOneRequired,
  groupCap,
  incrementTo,
  initialQuantity,
  limitsForGroup,
  moneyToMinor,
  parseFlexibleAmount,
  PER_TYPE_CAP,
  remainingInGroup,
  reserveLines,
  selectionGuard,
  type GroupLimits,
} from '../../src/domain/quantity';

const limits = (over: Partial<GroupLimits> = {}): GroupLimits => ({
  typeCount: 2,
  min_tickets_per_order: 0,
  max_tickets_per_order: 20,
  groupAvailable: 60,
  sessionAvailable: 80,
  ...over,
});

describe('quantity steppers (spec section 5)', () => {
  it('steps by 1 in a multi-type group', () => {
    expect(incrementTo(limits(), 0, 0)).toBe(1);
    expect(incrementTo(limits(), 3, 5)).toBe(4);
    expect(decrementTo(limits(), 4)).toBe(3);
  });
  it('first increment jumps to the group minimum only for a one-type group with min >= 1', () => {
    const single = limits({ typeCount: 1, min_tickets_per_order: 4 });
    expect(effectiveMinimum(single)).toBe(4);
    expect(incrementTo(single, 0, 0)).toBe(4);
    expect(incrementTo(single, 4, 4)).toBe(5);
    // Two types: the minimum does not apply to the steppers.
    expect(effectiveMinimum(limits({ min_tickets_per_order: 4 }))).toBe(0);
    expect(incrementTo(limits({ min_tickets_per_order: 4 }), 0, 0)).toBe(1);
  });
  it('decrement from the minimum goes to 0', () => {
    const single = limits({ typeCount: 1, min_tickets_per_order: 3 });
    expect(decrementTo(single, 3)).toBe(0);
    expect(decrementTo(single, 5)).toBe(4);
    expect(decrementTo(single, 0)).toBeNull();
  });
  it('exactly one required: starts at 1 and cannot be decremented', () => {
    const one = limits({ typeCount: 1, min_tickets_per_order: 1, max_tickets_per_order: 1 });
    expect(exactlyOneRequired(one)).toBe(true);
    expect(initialQuantity(one)).toBe(1);
    expect(decrementTo(one, 1)).toBeNull();
    expect(incrementTo(one, 1, 1)).toBeNull();
    expect(initialQuantity(limits())).toBe(0);
    expect(initialQuantity({ ...one, sessionAvailable: 0 })).toBe(0);
  });
  it('group cap is the smallest of max per order, group remaining and session availability (-1 unlimited)', () => {
    expect(groupCap(limits())).toBe(20);
    expect(groupCap(limits({ groupAvailable: 7 }))).toBe(7);
    expect(groupCap(limits({ sessionAvailable: 3 }))).toBe(3);
    expect(groupCap(limits({ max_tickets_per_order: 0, groupAvailable: -1, sessionAvailable: -1 }))).toBe(-1);
    expect(groupCap(limits({ max_tickets_per_order: -1, groupAvailable: 9, sessionAvailable: -1 }))).toBe(9);
  });
  it('refuses increments at the cap and when nothing remains', () => {
    expect(incrementTo(limits(), 10, 20)).toBeNull();
    expect(incrementTo(limits({ sessionAvailable: 0 }), 0, 0)).toBeNull();
    expect(incrementTo(limits({ groupAvailable: 2 }), 1, 2)).toBeNull();
    expect(remainingInGroup(limits({ groupAvailable: 2 }), 2)).toBe(0);
    // The jump to the minimum must fit as a whole.
    expect(incrementTo(limits({ typeCount: 1, min_tickets_per_order: 4, sessionAvailable: 3 }), 0, 0)).toBeNull();
  });
  it('caps one type at 1000 even when everything else is unlimited', () => {
    const open = limits({ max_tickets_per_order: 0, groupAvailable: -1, sessionAvailable: -1 });
    expect(incrementTo(open, PER_TYPE_CAP - 1, PER_TYPE_CAP - 1)).toBe(PER_TYPE_CAP);
    expect(incrementTo(open, PER_TYPE_CAP, PER_TYPE_CAP)).toBeNull();
    expect(clampToCap(open, 5000)).toBe(PER_TYPE_CAP);
  });
  it('never lets a group exceed its cap, whatever the presses (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          max: fc.integer({ min: -1, max: 30 }),
          group: fc.integer({ min: -1, max: 30 }),
          session: fc.integer({ min: -1, max: 30 }),
          min: fc.integer({ min: 0, max: 5 }),
        }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 1 })), { maxLength: 80 }),
        ({ max, group, session, min }, presses) => {
          const g = limits({
            typeCount: 2,
            max_tickets_per_order: max,
            groupAvailable: group,
            sessionAvailable: session,
            min_tickets_per_order: min,
          });
          const counts = [0, 0];
          for (const [up, i] of presses) {
            const total = counts[0] + counts[1];
            const next = up ? incrementTo(g, counts[i], total) : decrementTo(g, counts[i]);
            if (next !== null) counts[i] = next;
            expect(counts[i]).toBeGreaterThanOrEqual(0);
          }
          const cap = groupCap(g);
          if (cap >= 0) expect(counts[0] + counts[1]).toBeLessThanOrEqual(cap);
        },
      ),
    );
  });
});

describe('group limits', () => {
  const row = {
    min_tickets_per_order: 0,
    max_tickets_per_order: 20,
    available: true,
    available_capacity: 60,
    exclude_from_event_capacity: false,
  };
  it('shares the session capacity with the other counted groups', () => {
    expect(limitsForGroup(row, 2, { available: 10, pickedInOtherGroups: 4 }).sessionAvailable).toBe(6);
    expect(limitsForGroup(row, 2, { available: 3, pickedInOtherGroups: 9 }).sessionAvailable).toBe(0);
    expect(limitsForGroup(row, 2, { available: -1, pickedInOtherGroups: 9 }).sessionAvailable).toBe(-1);
  });
  it('ignores the session for groups excluded from event capacity and for flexible admission; unavailable groups have 0', () => {
    expect(
      limitsForGroup({ ...row, exclude_from_event_capacity: true }, 1, { available: 2, pickedInOtherGroups: 0 }).sessionAvailable,
    ).toBe(-1);
    expect(limitsForGroup(row, 1, null).sessionAvailable).toBe(-1);
    expect(limitsForGroup({ ...row, available: false }, 1, null).groupAvailable).toBe(0);
  });
});

describe('guards', () => {
  const base = { needsAdmissionChoice: false, mode: 'date' as const, selectedDate: '2026-11-22', selectedSessionId: 's1', ticketCount: 2 };
  it('names the first missing step', () => {
    expect(selectionGuard({ ...base, needsAdmissionChoice: true, mode: null as never })).toBe('admissionType');
    expect(selectionGuard({ ...base, selectedDate: null, selectedSessionId: null })).toBe('date');
    expect(selectionGuard({ ...base, selectedSessionId: null })).toBe('session');
    expect(selectionGuard({ ...base, ticketCount: 0 })).toBe('atLeastOneTicket');
    expect(selectionGuard(base)).toBeNull();
    expect(selectionGuard({ ...base, mode: 'flexible' as never, selectedDate: null, selectedSessionId: null })).toBeNull();
  });
});

describe('flexible price and money', () => {
  it('accepts amounts with at most two decimals inside min and max', () => {
    expect(parseFlexibleAmount('5', 500, 500000)).toBe(500);
    expect(parseFlexibleAmount(' 12.5 ', 500, 500000)).toBe(1250);
    expect(parseFlexibleAmount('12.34', 500, 500000)).toBe(1234);
    expect(parseFlexibleAmount('4.99', 500, 500000)).toBeNull();
    expect(parseFlexibleAmount('5000.01', 500, 500000)).toBeNull();
    expect(parseFlexibleAmount('12.345', 500, 500000)).toBeNull();
    expect(parseFlexibleAmount('abc', 500, 500000)).toBeNull();
    expect(parseFlexibleAmount('', 500, 500000)).toBeNull();
    expect(parseFlexibleAmount('-6', 500, 500000)).toBeNull();
  });
  it('reads wire money strings', () => {
    expect(moneyToMinor('24.00')).toBe(2400);
    expect(moneyToMinor('1.5')).toBe(150);
    expect(moneyToMinor(null)).toBeNull();
    expect(moneyToMinor('x')).toBeNull();
  });
  it('builds one reservation line per ticket with its admit details and amount', () => {
    const lines = reserveLines({
      sessionId: 's1',
      ticketTypeId: 't1',
      quantity: 3,
      faceValue: '10.00',
      admit: [{ admit_name: 'Ada Lovelace' }, undefined, { admit_email: 'a@b.co' }],
    });
    expect(lines).toEqual([
      { event_session_id: 's1', ticket_type_id: 't1', admit_name: 'Ada Lovelace', face_value: '10.00' },
      { event_session_id: 's1', ticket_type_id: 't1', face_value: '10.00' },
      { event_session_id: 's1', ticket_type_id: 't1', admit_email: 'a@b.co', face_value: '10.00' },
    ]);
    expect(reserveLines({ sessionId: null, ticketTypeId: 't', quantity: 0 })).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { dateMessages, matchesDateOrSession, normaliseRules, quantityMessages, sessionMessages } from '../../src/domain/message-rules';

// 2026-03-11 is a Wednesday, 2026-03-14 a Saturday.
describe('dateOrSession triggers', () => {
  it('match date intervals (both ends included), weekdays by number or name, and times of day (end exclusive)', () => {
    expect(matchesDateOrSession({ dateInterval: { from: '2026-03-11', to: '2026-03-12' } }, '2026-03-11')).toBe(true);
    expect(matchesDateOrSession({ dateInterval: { from: '2026-03-11', to: '2026-03-12' } }, '2026-03-13')).toBe(false);
    expect(matchesDateOrSession({ dateInterval: { start: '2026-03-12' } }, '2026-03-11')).toBe(false);
    expect(matchesDateOrSession({ weekdays: ['sat', 'sun'] }, '2026-03-14')).toBe(true);
    expect(matchesDateOrSession({ weekdays: [3] }, '2026-03-11')).toBe(true);
    expect(matchesDateOrSession({ weekdays: ['wed'] }, '2026-03-14')).toBe(false);
    expect(matchesDateOrSession({ time_of_day: { start: '10:00', end: '11:00' } }, '2026-03-11', '10:59')).toBe(true);
    expect(matchesDateOrSession({ time_of_day: { start: '10:00', end: '11:00' } }, '2026-03-11', '11:00')).toBe(false);
    // A day matches a time-of-day rule: the time narrows sessions only.
    expect(matchesDateOrSession({ time_of_day: { start: '10:00', end: '11:00' } }, '2026-03-11')).toBe(true);
    expect(matchesDateOrSession(undefined, '2026-03-11')).toBe(true);
  });
});

describe('rule texts', () => {
  const rules = normaliseRules([
    {
      _rank: 2,
      triggers: { dateOrSession: { weekdays: ['sat', 'sun'] } },
      actions: [
        { type: 'date_annotation', text: 'Busy day' },
        { type: 'date_message', text: 'Come early' },
      ],
    },
    {
      _rank: 1,
      triggers: { dateOrSession: { dateInterval: { from: '2026-03-14', to: '2026-03-14' } } },
      actions: { date_annotation: 'Pi day' },
    },
    {
      _rank: 3,
      triggers: [{ type: 'dateOrSession', time_of_day: { start: '09:00', end: '10:00' } }],
      actions: [
        { type: 'session_annotation', text: 'Quiet hour' },
        { type: 'session_message', text: 'Bring ID' },
      ],
    },
    {
      _rank: 4,
      triggers: { quantity: { ticket_group_names: ['Adults'], min: 5 } },
      actions: [{ type: 'quantity_message', text: 'Groups of 5+ call us' }],
    },
    {
      _rank: 5,
      triggers: { quantity: { ticket_type_ids: ['child'], max: 2 } },
      actions: [{ type: 'quantity_message', text: 'At most 2 children per adult' }],
    },
    {
      _rank: 6,
      triggers: {},
      actions: [
        { type: 'unknown', text: 'ignored' },
        { type: 'date_message', text: '' },
      ],
    },
  ]);
  it('orders by _rank and reads both stored forms', () => {
    expect(rules.map((r) => r._rank)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(dateMessages(rules, '2026-03-14')).toEqual({ annotations: ['Pi day', 'Busy day'], tooltip: ['Come early'] });
    expect(dateMessages(rules, '2026-03-11')).toEqual({ annotations: [], tooltip: [] });
  });
  it('session texts need the time of day to match', () => {
    expect(sessionMessages(rules, '2026-03-11', '09:30')).toEqual({ annotations: ['Quiet hour'], messages: ['Bring ID'] });
    expect(sessionMessages(rules, '2026-03-11', '10:00')).toEqual({ annotations: [], messages: [] });
  });
  it('quantity texts count the matching lines within min..max', () => {
    const line = (name: string, id: string, quantity: number) => ({
      ticket_group_id: 'g',
      ticket_group_name: name,
      ticket_type_id: id,
      quantity,
    });
    expect(quantityMessages(rules, [line('Adults', 'adult', 3), line('Adults', 'senior', 2)])).toEqual(['Groups of 5+ call us']);
    expect(quantityMessages(rules, [line('Adults', 'adult', 4)])).toEqual([]);
    expect(quantityMessages(rules, [line('Kids', 'child', 2)])).toEqual(['At most 2 children per adult']);
    expect(quantityMessages(rules, [line('Kids', 'child', 3)])).toEqual([]);
  });
});

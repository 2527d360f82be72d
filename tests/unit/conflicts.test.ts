import { describe, expect, it } from 'vitest';
import { cartVisits, conflictRules, findConflict, occupied, type TimedVisit } from '../../src/domain/conflicts';

const rules = conflictRules({
  conflict_avoidance: { enabled: true, exclude_categories: ['admission'], pad_pre_start_minutes: 5, pad_post_end_minutes: 5 },
});
const visit = (sessionId: string, start: string, end: string | null, category = 'tour', meta?: TimedVisit['meta']): TimedVisit => ({
  sessionId,
  start: `2026-05-05T${start}:00Z`,
  end: end === null ? null : `2026-05-05T${end}:00Z`,
  category,
  meta,
});

describe('conflict avoidance rules (issue 16)', () => {
  it('reads the seller config: off when absent, pads default to 5 minutes, odd values ignored', () => {
    expect(conflictRules(undefined)).toEqual({ enabled: false, excludeCategories: [], padPreMinutes: 5, padPostMinutes: 5 });
    expect(conflictRules({ conflict_avoidance: { enabled: true, pad_pre_start_minutes: -3, exclude_categories: ['a', 2] } })).toEqual({
      enabled: true,
      excludeCategories: ['a'],
      padPreMinutes: 5,
      padPostMinutes: 5,
    });
  });

  it('a visit occupies its time plus the pads; the event meta overrides the defaults', () => {
    const v = visit('a', '13:00', '13:30');
    expect(occupied(v, rules).map((ms) => new Date(ms).toISOString().slice(11, 16))).toEqual(['12:55', '13:35']);
    const own = visit('a', '13:00', '13:30', 'tour', { pad_pre_start: 20, pad_post_end: 0 });
    expect(occupied(own, rules).map((ms) => new Date(ms).toISOString().slice(11, 16))).toEqual(['12:40', '13:30']);
    expect(occupied(visit('a', '13:00', null), rules).map((ms) => new Date(ms).toISOString().slice(11, 16))).toEqual(['12:55', '13:05']);
  });

  it('finds the overlapping visit, with the padding deciding at the edges', () => {
    const talk = visit('talk', '13:00', '13:30');
    expect(findConflict(talk, [visit('ocean', '13:00', '13:45', 'exhibition')], rules)?.sessionId).toBe('ocean');
    // ends 12:45 (+5) and the talk starts 13:00 (-5): 10 minutes apart
    expect(findConflict(talk, [visit('ocean', '12:00', '12:45', 'exhibition')], rules)).toBeNull();
    // ends 12:50 (+5 = 12:55) touches the talk's 12:55: no overlap
    expect(findConflict(talk, [visit('x', '12:00', '12:50')], rules)).toBeNull();
    expect(findConflict(talk, [visit('x', '12:00', '12:51')], rules)?.sessionId).toBe('x');
  });

  it('the same session, excluded categories on either side, and switched-off rules never conflict', () => {
    const talk = visit('talk', '13:00', '13:30');
    expect(findConflict(talk, [visit('talk', '13:00', '13:30')], rules)).toBeNull();
    expect(findConflict(talk, [visit('ga', '09:00', '17:00', 'admission')], rules)).toBeNull();
    expect(findConflict(visit('ga', '09:00', '17:00', 'admission'), [talk], rules)).toBeNull();
    expect(findConflict(talk, [visit('ocean', '13:00', '13:45')], { ...rules, enabled: false })).toBeNull();
  });

  it('reads the visits of a cart: items with a session only', () => {
    const base = { name: 'Ocean Light', category: 'exhibition', pad_pre_start: null, pad_post_end: 10 };
    const visits = cartVisits([
      { ...base, event_session_id: 's1', start_datetime: '2026-05-05T13:00:00Z', end_datetime: '2026-05-05T13:45:00Z' },
      { ...base, event_session_id: null, start_datetime: null, end_datetime: null },
    ]);
    expect(visits).toEqual([
      {
        sessionId: 's1',
        name: 'Ocean Light',
        start: '2026-05-05T13:00:00Z',
        end: '2026-05-05T13:45:00Z',
        category: 'exhibition',
        meta: { pad_pre_start: null, pad_post_end: 10 },
      },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  formatSessionTime,
  hhmmMinutes,
  initialTabIndex,
  sessionCapacityLabel,
  sessionTabs,
  type SessionLike,
} from '../../src/domain/session-tabs';

const TZ = 'America/New_York';
// 2026-11-22 is in EST (UTC-5): 14:00Z is 9:00 AM.
const session = (id: string, utcTime: string, over: Partial<SessionLike> = {}): SessionLike => ({
  id,
  start_datetime: `2026-11-22T${utcTime}:00.000Z`,
  sold_out: false,
  availableCapacity: 50,
  ...over,
});

describe('session tabs (spec sections 2 and 9)', () => {
  const config = { first_tab_threshold: '1200', second_tab_threshold: '2400', labels: ['Morning', 'Afternoon'] };
  it('splits sessions at the venue-local thresholds', () => {
    const tabs = sessionTabs(config, [session('a', '14:00'), session('b', '16:30'), session('c', '17:00'), session('d', '21:30')], TZ);
    expect(tabs.map((t) => [t.label, t.from, t.to, t.sessions.map((s) => s.id)])).toEqual([
      ['Morning', '0000', '1200', ['a', 'b']],
      ['Afternoon', '1200', '2400', ['c', 'd']],
    ]);
  });
  it("disables a tab with no sessions ('Not available') and one whose sessions are all sold out ('Sold out')", () => {
    const tabs = sessionTabs(
      { first_tab_threshold: '1200', second_tab_threshold: '1700', third_tab_threshold: '2400' },
      [session('a', '14:00', { sold_out: true }), session('b', '15:00', { availableCapacity: 0 }), session('c', '18:00')],
      TZ,
    );
    expect(tabs.map((t) => t.state)).toEqual(['sold_out', 'available', 'not_available']);
    expect(tabs[0].label).toBeNull();
    expect(initialTabIndex(tabs, null)).toBe(1);
    expect(initialTabIndex(tabs, 'a')).toBe(0);
  });
  it('has no tabs without a valid config', () => {
    expect(sessionTabs(undefined, [session('a', '14:00')], TZ)).toEqual([]);
    expect(sessionTabs({ first_tab_threshold: '9999' }, [session('a', '14:00')], TZ)).toEqual([]);
    expect(hhmmMinutes('2400')).toBe(1440);
    expect(hhmmMinutes('1260')).toBeNull();
  });
  it("formats start times as 'h:mm A' in the venue timezone", () => {
    expect(formatSessionTime('2026-11-22T14:00:00.000Z', TZ)).toBe('9:00 AM');
    expect(formatSessionTime('2026-11-22T17:30:00.000Z', TZ)).toBe('12:30 PM');
    expect(formatSessionTime('2026-11-23T04:05:00.000Z', TZ)).toBe('11:05 PM');
    expect(formatSessionTime('2026-11-22T05:00:00.000Z', TZ)).toBe('12:00 AM');
  });
  it("shows '{count} left' only below the threshold, and sold out", () => {
    expect(sessionCapacityLabel(session('a', '14:00', { availableCapacity: 9 }), 10)).toEqual({ kind: 'left', count: 9 });
    expect(sessionCapacityLabel(session('a', '14:00', { availableCapacity: 10 }), 10)).toBeNull();
    expect(sessionCapacityLabel(session('a', '14:00', { availableCapacity: 3 }), null)).toBeNull();
    expect(sessionCapacityLabel(session('a', '14:00', { availableCapacity: -1 }), 10)).toBeNull();
    expect(sessionCapacityLabel(session('a', '14:00', { sold_out: true }), 10)).toEqual({ kind: 'sold_out' });
  });
});

import { describe, expect, it } from 'vitest';
import { clockOf, readPinnedClock } from '../../server/clock';
import { readConfig } from '../../server/config';

describe('the test-only server clock (TEST_NOW)', () => {
  it('is the real clock unless TEST_NOW is set', () => {
    expect(readPinnedClock({})).toBeUndefined();
    expect(readConfig({}).pinnedClock).toBeUndefined();
    const now = clockOf(undefined)();
    expect(Math.abs(now.getTime() - Date.now())).toBeLessThan(1000);
  });

  it('reads the pinned instant at TEST_NOW_SINCE and runs at real speed from there', () => {
    const since = Date.now() - 5_000;
    const pinned = readPinnedClock({ TEST_NOW: '2027-03-14T01:50:00-05:00', TEST_NOW_SINCE: String(since) })!;
    expect(pinned).toEqual({ instant: Date.parse('2027-03-14T06:50:00Z'), since });
    const now = clockOf(pinned)().getTime();
    // 5 s after the pin: 01:50:05 EST, whatever zone the process runs in.
    expect(now - Date.parse('2027-03-14T06:50:05Z')).toBeGreaterThanOrEqual(0);
    expect(now - Date.parse('2027-03-14T06:50:05Z')).toBeLessThan(1000);
  });

  it('starts at the instant when the config is read if no TEST_NOW_SINCE is given', () => {
    const pinned = readPinnedClock({ TEST_NOW: '2026-12-31T23:30:00-05:00' }, 1_000)!;
    expect(pinned).toEqual({ instant: Date.parse('2027-01-01T04:30:00Z'), since: 1_000 });
  });

  it('is refused in production and without an offset', () => {
    expect(() => readConfig({ NODE_ENV: 'production', TEST_NOW: '2026-11-30T21:30:00-05:00' })).toThrow(/refused with NODE_ENV=production/);
    expect(() => readPinnedClock({ TEST_NOW: '2026-11-30T21:30:00' })).toThrow(/with an offset/);
    expect(() => readPinnedClock({ TEST_NOW: 'tomorrow' })).toThrow(/with an offset/);
    expect(() => readPinnedClock({ TEST_NOW: '2026-02-30T21:30:00Z' })).toThrow(/not a valid instant/);
    expect(() => readPinnedClock({ TEST_NOW: '2028-02-29T23:30:00-05:00' })).not.toThrow();
    expect(() => readPinnedClock({ TEST_NOW: '2026-11-30T21:30:00Z', TEST_NOW_SINCE: 'soon' })).toThrow(/epoch milliseconds/);
  });
});

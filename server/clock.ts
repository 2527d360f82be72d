/**
 * The server's clock: real time, or in tests a clock pinned to an instant.
 *
 * `TEST_NOW` (an ISO 8601 instant with offset) makes "now" read that instant at the real moment `TEST_NOW_SINCE`
 * (epoch milliseconds; default: when the config is read), and run at real speed from there. Holds, timers and
 * expiries therefore take their real durations, while "today", the catalogue's relative schedules and every
 * date rule are those of the pinned day. The browser tests pin Chromium's clock (Playwright's `page.clock`) to
 * the same line, so server and browser agree to the millisecond. Only tests set it: it is refused in production.
 */
export interface PinnedClock {
  /** The instant "now" reads at `since` (epoch ms). */
  instant: number;
  /** The real time (epoch ms) at which the clock read `instant`. */
  since: number;
}

export function readPinnedClock(env: NodeJS.ProcessEnv, realNow = Date.now()): PinnedClock | undefined {
  const value = env.TEST_NOW;
  if (!value) return undefined;
  if (env.NODE_ENV === 'production') throw new Error('TEST_NOW is refused with NODE_ENV=production: it is a test-only clock');
  // An instant, not a wall-clock time: without an offset "now" would depend on the machine's time zone.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    throw new Error(`TEST_NOW must be an ISO 8601 instant with an offset (2026-11-30T21:30:00-05:00), not '${value}'`);
  }
  const instant = Date.parse(value);
  // Date.parse rolls 30 February over to March: the wall-clock date read back at the given offset must be the one written.
  const offset = value.endsWith('Z') ? 0 : offsetMinutes(value.slice(-6));
  if (Number.isNaN(instant) || new Date(instant + offset * 60_000).toISOString().slice(0, 10) !== value.slice(0, 10)) {
    throw new Error(`TEST_NOW is not a valid instant: '${value}'`);
  }
  const since = env.TEST_NOW_SINCE === undefined ? realNow : Number(env.TEST_NOW_SINCE);
  if (!Number.isFinite(since)) throw new Error(`TEST_NOW_SINCE must be epoch milliseconds, not '${env.TEST_NOW_SINCE}'`);
  return { instant, since };
}

/** '+13:00' -> 780, '-05:00' -> -300 */
function offsetMinutes(offset: string): number {
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}

/** "now" for a pinned clock (the real clock shifted by a constant), or the real clock. */
export function clockOf(pinned: PinnedClock | undefined): () => Date {
  if (!pinned) return () => new Date();
  const offset = pinned.instant - pinned.since;
  return () => new Date(Date.now() + offset);
}

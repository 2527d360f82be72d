import { test as base } from '@playwright/test';
import type { AwkwardInstant } from '../helpers/instants';

export interface ClockOptions {
  /** Set by the 'clock' projects (playwright.config.ts): the instant the server and the browser are pinned to. */
  pinnedInstant: AwkwardInstant | null;
}

/**
 * "now" of the test clock: the pinned instant shifted by the real time since E2E_CLOCK_SINCE, the same line the
 * server's TEST_NOW clock follows (server/clock.ts), or the real time when nothing is pinned. Tests that read the
 * date compute their expectations from this, never from the day they run on.
 */
export function testNow(pinned: AwkwardInstant | null): Date {
  if (!pinned) return new Date();
  const since = Number(process.env.E2E_CLOCK_SINCE);
  if (!Number.isFinite(since)) throw new Error('E2E_CLOCK_SINCE is not set: run through playwright.config.ts');
  return new Date(Date.parse(pinned.iso) + (Date.now() - since));
}

/** The Playwright test with the pinned clock: in a 'clock' project the page's clock (Date, timers) starts at the
 *  server's "now" and runs at real speed (page.clock.install), before anything is loaded. */
export const test = base.extend<ClockOptions & { now: () => Date }>({
  pinnedInstant: [null, { option: true }],
  now: async ({ pinnedInstant }, use) => {
    await use(() => testNow(pinnedInstant));
  },
  page: async ({ page, pinnedInstant }, use) => {
    if (pinnedInstant) await page.clock.install({ time: testNow(pinnedInstant) });
    await use(page);
  },
});

export { expect } from '@playwright/test';

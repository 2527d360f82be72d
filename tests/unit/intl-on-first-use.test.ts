import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The first Intl formatter a page makes waits for the browser's ICU data (20-108 ms, median 35, in fresh Chromium pages
 * here). The modules of the first load make theirs when they first format, not as they load: as module constants, that
 * wait ran inside the one long task that evaluates the page's scripts, before the first screen (README 'Performance').
 */
describe('date and price formatters are made on first use', () => {
  const made: string[] = [];
  const counting = <T extends object>(name: string, real: T) =>
    new Proxy(real, {
      construct(target, args) {
        made.push(name);
        return Reflect.construct(target as never, args);
      },
    });

  afterEach(() => {
    vi.unstubAllGlobals();
    made.length = 0;
  });

  it('loading the modules makes none; the first format makes one, kept for the next', async () => {
    vi.resetModules();
    vi.stubGlobal('Intl', {
      ...Intl,
      DateTimeFormat: counting('DateTimeFormat', Intl.DateTimeFormat),
      NumberFormat: counting('NumberFormat', Intl.NumberFormat),
    });
    const dates = await import('../../src/domain/dates');
    const days = await import('../../src/domain/calendar-days');
    const pricing = await import('../../src/domain/pricing');
    expect(made).toEqual([]);
    expect(dates.longDateLabel('2026-03-11')).toBe('Wednesday, March 11, 2026');
    expect(dates.longDateLabel('2026-03-12')).toBe('Thursday, March 12, 2026');
    expect(days.formatShortDate('2026-11-22')).toBe('Sun, Nov 22');
    expect(days.formatShortDate('2026-11-23')).toBe('Mon, Nov 23');
    expect(made).toEqual(['DateTimeFormat', 'DateTimeFormat']);
    expect(typeof pricing.formatMoney).toBe('function');
  });
});

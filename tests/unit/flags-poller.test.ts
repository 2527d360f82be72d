import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AxiosInstance } from 'axios';
import { startFlagsPoller } from '../../src/app/flags-poller';
import { ConfigStore } from '../../src/stores/ConfigStore';

const seller = { id: 's1', slug: 'demo', name: 'Demo', currency: 'USD', timezone: 'America/New_York', locale: 'en-US' };
const deployment = { apiBaseUrl: '/api', cachedApiBaseUrl: '/cached_api', defaultSeller: 'demo' };

/** A document whose visibility the test switches, firing visibilitychange like a browser tab. */
function fakeDocument() {
  const listeners = new Set<() => void>();
  return {
    hidden: false,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    setHidden(hidden: boolean) {
      this.hidden = hidden;
      for (const fn of listeners) fn();
    },
  };
}

describe('flags poller', () => {
  let served: Record<string, unknown>;
  let get: ReturnType<typeof vi.fn>;
  let config: ConfigStore;

  beforeEach(() => {
    vi.useFakeTimers();
    served = { flags: { promo_field: true } };
    get = vi.fn(async () => ({ data: { config: { _data: [{ key: 'storefront', value: served }] } } }));
    config = new ConfigStore(deployment, { seller, storefront: { flags: { promo_field: true } }, strings: {}, contentBlocks: [] }, null);
  });
  afterEach(() => vi.useRealTimers());

  it('asks every 1000 ms and applies a switched flag', async () => {
    const doc = fakeDocument();
    const stop = startFlagsPoller({ api: { get } as unknown as AxiosInstance, config, doc: doc as unknown as Document });
    await vi.advanceTimersByTimeAsync(999);
    expect(get).not.toHaveBeenCalled();
    served = { flags: { promo_field: false }, flags_poll_ms: 3000 };
    await vi.advanceTimersByTimeAsync(1);
    expect(get).toHaveBeenCalledTimes(1);
    expect(config.flags.promo_field).toBe(false);
    // The seller asked for a slower poll: the next one waits 3000 ms.
    await vi.advanceTimersByTimeAsync(2999);
    expect(get).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(get).toHaveBeenCalledTimes(2);
    stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('pauses while the tab is hidden and reads at once when it shows again; a failed poll keeps the flags', async () => {
    const doc = fakeDocument();
    startFlagsPoller({ api: { get } as unknown as AxiosInstance, config, doc: doc as unknown as Document });
    doc.setHidden(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(get).not.toHaveBeenCalled();
    get.mockRejectedValueOnce(new Error('offline'));
    doc.setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(get).toHaveBeenCalledTimes(1);
    expect(config.flags.promo_field).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(get).toHaveBeenCalledTimes(2);
  });
});

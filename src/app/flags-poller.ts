import type { ApiClient } from '../api/http';
import type { ConfigResponse, StorefrontConfig } from '../api/types';
import type { ConfigStore } from '../stores/ConfigStore';
import { flagsPollMs } from '../domain/flags';

export interface FlagsPollerDeps {
  api: ApiClient;
  config: ConfigStore;
  /** the page's document: its visibility pauses the poll (tests pass their own) */
  doc?: Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;
  /** poll at once (the loader already waited one interval), else after one interval */
  immediately?: boolean;
}

/**
 * Polls GET config for the seller's feature flags (spec sections 7 and 9: default every 1000 ms, `flags_poll_ms`), so a
 * flag the seller switches reaches pages already open. Paused while the tab is hidden (a background tab asks
 * nothing), resumed with an immediate read when it shows again. One request at a time: a slow answer delays the
 * next poll instead of piling requests up. A failed poll keeps the flags it had. It is loaded in a chunk when the first
 * poll is due (src/app/late-start.ts), so the first page carries none of it. Returns the stop function.
 */
export function startFlagsPoller({ api, config, doc = document, immediately = false }: FlagsPollerDeps): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let inFlight = false;
  let interval = flagsPollMs(config.storefront);

  const schedule = () => {
    if (stopped || doc.hidden || timer !== null || inFlight) return;
    timer = setTimeout(poll, interval);
  };

  async function poll() {
    timer = null;
    if (stopped || doc.hidden) return;
    inFlight = true;
    try {
      const { data } = await api.get<ConfigResponse>('config', { params: { 'key._in': 'storefront' } });
      const storefront = data.config?._data?.find((row) => row.key === 'storefront')?.value as StorefrontConfig | undefined;
      if (storefront && !stopped) {
        interval = flagsPollMs(storefront);
        // Only a real change reaches the store: observers re-render when a flag switches, not at every poll.
        if (storefront.flags && JSON.stringify(storefront.flags) !== JSON.stringify(config.flags)) config.setFlags(storefront.flags);
      }
    } catch {
      // The network or the server hiccuped: the flags stay as they were until a later poll answers.
    } finally {
      inFlight = false;
      schedule();
    }
  }

  const onVisibility = () => {
    if (doc.hidden) {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    } else if (timer === null && !inFlight) {
      void poll();
    }
  };

  doc.addEventListener('visibilitychange', onVisibility);
  if (immediately && !doc.hidden) void poll();
  else schedule();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    doc.removeEventListener('visibilitychange', onVisibility);
  };
}

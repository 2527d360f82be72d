import type { i18n as I18n } from 'i18next';
import type { RootStore } from '../stores/RootStore';
import { dropTracking } from '../analytics/track';
import { startFlagsPoller } from './flags-poller';

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * What no first paint waits for (main.tsx loads this chunk when the first flags poll is due): the feature-flag poller,
 * which polls at once and then every `flags_poll_ms`, and the seller's analytics (src/analytics/start.tsx, a chunk of
 * its own, not even fetched when analytics is off: the reports the stores made are then dropped).
 */
export function startLate(store: RootStore, i18n: I18n): void {
  startFlagsPoller({ api: store.api, config: store.config, immediately: true });
  if (!store.config.storefront.analytics?.enabled) return dropTracking();
  import('../analytics/start')
    .then(({ startAnalytics }) => startAnalytics({ store, i18n, storage: safeStorage() }))
    // A chunk that failed to load leaves the page unmeasured: nothing to tell the visitor.
    .catch(() => dropTracking());
}

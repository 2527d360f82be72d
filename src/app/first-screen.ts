import type { RootStore } from '../stores/RootStore';
import { parseEventFilters } from '../domain/event-filters';
import { drawnScreenId, drawnScreenOf } from '../domain/paths';
import { CheckoutScreen, EventDetailScreen, EventsScreen, loadCheckoutModule } from './screens';

/**
 * What a screen the server draws (src/domain/paths.ts drawnScreenOf) needs before its first render: its reads and
 * its code. The server primes its stores and draws (src/entry-server.tsx); the client primes its own from the same
 * reads (the page's, src/api/primed-reads.ts) and hydrates, so both first renders are the same. False when the
 * screen could not be primed: it is then drawn by the client alone, as any other.
 */
export async function primeDrawnScreen(store: RootStore, pathname: string, search: string): Promise<boolean> {
  const screen = drawnScreenOf(pathname, search, store.config.sellerPrefix);
  if (screen === 'events') {
    const filters = parseEventFilters(new URLSearchParams(), store.config.filterOptions);
    await Promise.all([store.events.primeEvents(filters), EventsScreen.preload()]);
    return store.events.state === 'ready';
  }
  if (screen === 'event-detail') {
    // The event's heading, cover and description; its reservation flow loads once the page is alive, as before.
    const eventId = drawnScreenId(pathname, store.config.sellerPrefix);
    await Promise.all([store.events.primeEvent(eventId), EventDetailScreen.preload()]);
    return store.events.detailState === 'ready' && store.events.detail?.event.id === eventId;
  }
  if (screen === 'checkout') {
    // Its priming comes with its code, which the events listing does not load.
    const [{ primeDrawnCheckout }] = await Promise.all([loadCheckoutModule(), CheckoutScreen.preload()]);
    return primeDrawnCheckout(store, drawnScreenId(pathname, store.config.sellerPrefix));
  }
  return false;
}

/** The page's title as the drawn screen sets it (its useDocumentTitle), once primed. */
export function drawnScreenTitle(store: RootStore, pathname: string, search: string, t: (key: string) => string): string | null {
  const screen = drawnScreenOf(pathname, search, store.config.sellerPrefix);
  if (screen === 'events') return t('events.title');
  if (screen === 'checkout') return t('checkout.title');
  return screen === 'event-detail' ? (store.events.detail?.event.name ?? null) : null;
}

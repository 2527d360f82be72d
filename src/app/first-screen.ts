import type { RootStore } from '../stores/RootStore';
import { parseEventFilters } from '../domain/event-filters';
import { drawnScreenOf } from '../domain/paths';
import { EventsScreen } from './screens';

/**
 * What a screen the server draws (src/domain/paths.ts drawnScreenOf) needs before its first render: its reads and
 * its code. The server primes its stores and draws (src/entry-server.tsx); the client primes its own from the same
 * reads (the page's, src/api/primed-reads.ts) and hydrates, so both first renders are the same. False when the
 * screen could not be primed: it is then drawn by the client alone, as any other.
 */
export async function primeDrawnScreen(store: RootStore, pathname: string, search: string): Promise<boolean> {
  if (drawnScreenOf(pathname, search, store.config.sellerPrefix) !== 'events') return false;
  const filters = parseEventFilters(new URLSearchParams(), store.config.filterOptions);
  await Promise.all([store.events.primeEvents(filters), EventsScreen.preload()]);
  return store.events.state === 'ready';
}

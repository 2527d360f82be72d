import { LRUCache } from 'lru-cache';
import type { Deps } from '../deps';

/**
 * The rows almost every API request reads again and again, kept in memory for `READ_CACHE_MS` (the same freshness
 * the public catalogue reads have, server/http/read-cache.ts): the seller (one read per request before this) and
 * the on-sale path's catalogue of a session (its event, venue, ticket types, groups and named-ticket rules,
 * server/services/cart/fast-reserve.ts). Issue 19: a reservation on the on-sale path is then one statement.
 *
 * What may be read from here is what does not decide capacity: the seller's settings, prices, sales windows. The
 * capacity, hold and rate-limit checks run in the reserving statement itself, on the rows as they are. A seller
 * folder edit (seller-watch.ts) empties it at once; another process (`npm run seller:load`, a second server) is
 * seen within the TTL. READ_CACHE_MS=0 (the API tests) turns it off.
 */
export interface HotCaches {
  sellers: LRUCache<string, object>;
  catalogues: LRUCache<string, object>;
}

const byDb = new WeakMap<object, HotCaches>();

export function hotCaches(deps: Pick<Deps, 'db' | 'config'>): HotCaches | null {
  const ttl = deps.config.readCacheMs;
  if (ttl <= 0) return null;
  let caches = byDb.get(deps.db);
  if (!caches) {
    caches = {
      sellers: new LRUCache({ max: 100, ttl }),
      catalogues: new LRUCache({ max: 2000, ttl }),
    };
    byDb.set(deps.db, caches);
  }
  return caches;
}

/** Empties both: a seller's folder changed. */
export function forgetHotRows(deps: Pick<Deps, 'db'>): void {
  const caches = byDb.get(deps.db);
  caches?.sellers.clear();
  caches?.catalogues.clear();
}

/** The cached value of `key`, else what `load` gives (cached when it is not null or undefined). */
export async function cachedRead<T extends object>(
  cache: LRUCache<string, object> | undefined,
  key: string,
  load: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const hit = cache?.get(key) as T | undefined;
  if (hit) return hit;
  const value = await load();
  if (value) cache?.set(key, value);
  return value;
}

import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import type { Seller } from '../db/types';
import { DomainError } from './errors';
import { SellerRef } from '../../src/contract/primitives';
import { cachedRead, hotCaches } from '../services/hot-cache';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SELLER_REF = new RegExp((SellerRef as { pattern?: string }).pattern!);

/** The seller a request is for: `_seller` (id or slug), else the deployment's default seller. */
export async function resolveSeller(deps: Deps, idOrSlug: string | undefined): Promise<Seller> {
  const key = (idOrSlug ?? '').trim() || deps.config.defaultSeller;
  // The contract's SellerRef, for routes whose query schema does not name `_seller`: nothing else reaches the database.
  if (!SELLER_REF.test(key)) throw new DomainError('seller_not_found', `Resource seller not found.`);
  // Kept READ_CACHE_MS (server/services/hot-cache.ts): every API request names its seller.
  const seller = await cachedRead(hotCaches(deps)?.sellers, key, () => {
    const q = deps.db.selectFrom('seller').selectAll();
    return (UUID.test(key) ? q.where('id', '=', key) : q.where('slug', '=', key)).executeTakeFirst();
  });
  if (!seller) throw new DomainError('seller_not_found', `Resource seller not found.`, undefined, { seller: key });
  return seller;
}

export function sellerOf(deps: Deps, request: FastifyRequest): Promise<Seller> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return resolveSeller(deps, typeof query._seller === 'string' ? query._seller : undefined);
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { ledgerRoutes } from '../../src/contract/ledger';
import { lookupGiftCard } from '../services/gift-cards';
import { privateNoStore } from './cart';
import { retryAfter } from '../http/retry-after';

/** GET ledger/giftcard/{number} (issue 13): a gift card's balance, for the checkout's gift card field. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.route({
    ...ledgerRoutes.lookup,
    onSend: privateNoStore,
    onError: retryAfter,
    handler: async (request) => lookupGiftCard(deps, await sellerOf(deps, request), request.params.number, request.ip),
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { DomainError } from '../http/errors';
import { sellerOf } from '../http/seller';
import { addressRoutes } from '../../src/contract/address';
import { addressLookupOn } from '../../src/domain/address';
import { hit } from '../services/auth/rate-limit';
import { sha256 } from '../services/cart/access';
import { addressLookupConfigured, findAddresses, retrieveAddress } from '../services/address-lookup';
import { retryAfter } from '../http/retry-after';

/**
 * POST address/find and address/retrieve (issue 22): the checkout's address lookup through our server, so the
 * provider's key never reaches a browser. Each call counts against the client's network address (every one is a
 * paid request to the provider), and is refused when no provider is configured or the seller switched it off.
 */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  const allowed = async (request: FastifyRequest) => {
    const seller = await sellerOf(deps, request);
    if (!addressLookupOn(seller.config ?? {}, addressLookupConfigured(deps.config)))
      throw new DomainError('address_lookup_unavailable', 'Address lookup is not available.');
    await hit(deps, 'address_lookup_ip', `${seller.id}:${sha256(`address:${request.ip}`)}`);
  };

  api.route({
    ...addressRoutes.find,
    onError: retryAfter,
    handler: async (request) => {
      await allowed(request);
      return { items: await findAddresses(deps.config, request.body) };
    },
  });

  api.route({
    ...addressRoutes.retrieve,
    onError: retryAfter,
    handler: async (request) => {
      await allowed(request);
      return { items: await retrieveAddress(deps.config, request.body.id) };
    },
  });
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { csv } from '../services/query';
import { getConfig } from '../services/config';
import { cardGatewayId } from '../services/payments';
import { addressLookupConfigured } from '../services/address-lookup';
import { catalogueRoutes } from '../../src/contract/catalogue';

export function registerConfigRoutes(app: FastifyInstance, deps: Deps) {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...catalogueRoutes.config,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const gateway = cardGatewayId(deps.config, seller.config);
      const payments = {
        gateway,
        ...(gateway === 'stripe' && deps.config.stripePublishableKey ? { publishable_key: deps.config.stripePublishableKey } : {}),
      };
      return getConfig(seller, { keys: csv(request.query['key._in']), resourceIds: csv(request.query['resource_id._in']) }, payments, {
        addressLookup: addressLookupConfigured(deps.config),
      });
    },
  });
}

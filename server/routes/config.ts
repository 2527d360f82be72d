import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { csv } from '../services/query';
import { getConfig } from '../services/config';
import { catalogueRoutes } from '../../src/contract/catalogue';

export function registerConfigRoutes(app: FastifyInstance, deps: Deps) {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...catalogueRoutes.config,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      return getConfig(seller, { keys: csv(request.query['key._in']), resourceIds: csv(request.query['resource_id._in']) });
    },
  });
}

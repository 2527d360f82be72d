import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { parseEmbed } from '../services/query';
import { getTicketGroup } from '../services/catalog';
import { catalogueRoutes } from '../../src/contract/catalogue';

export function registerTicketGroupRoutes(app: FastifyInstance, deps: Deps) {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...catalogueRoutes.ticketGroup,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      return getTicketGroup(deps.db, seller, request.params.id, parseEmbed(request.query._embed), deps.now());
    },
  });
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { listEventTemplates } from '../services/catalog';
import { csv, page, parseEmbed } from '../services/query';
import { catalogueRoutes } from '../../src/contract/catalogue';

export function registerEventTemplateRoutes(app: FastifyInstance, deps: Deps) {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...catalogueRoutes.eventTemplates,
    handler: async (request) => {
      const q = request.query;
      const seller = await sellerOf(deps, request);
      return listEventTemplates(
        deps.db,
        seller,
        {
          ids: csv(q['id._in'])?.map((id) => id.toLowerCase()),
          categories: csv(q['category._in'] ?? q.category),
          hiddenTypes: csv(q['hidden_type._in']),
          embed: parseEmbed(q._embed),
          ...page(q._limit, q._offset),
        },
        deps.now(),
      );
    },
  });
}

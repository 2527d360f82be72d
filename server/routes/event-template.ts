import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { parseEmbed } from '../services/query';
import { listEventTemplates } from '../services/catalog';
import { csv, page } from '../services/query';
import { category, embed, hiddenTypeList, limit, offset, query, uuidList } from './schemas';

export function registerEventTemplateRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/event_template', {
    schema: {
      querystring: query({
        'id._in': uuidList, category, 'category._in': category, 'hidden_type._in': hiddenTypeList,
        _embed: embed, _limit: limit, _offset: offset,
      }),
    },
  }, async (request) => {
    const q = request.query as Record<string, string | undefined> & { _limit?: number; _offset?: number };
    const seller = await sellerOf(deps, request);
    return listEventTemplates(deps.db, seller, {
      ids: csv(q['id._in'])?.map((id) => id.toLowerCase()),
      categories: csv(q['category._in'] ?? q.category),
      hiddenTypes: csv(q['hidden_type._in']),
      embed: parseEmbed(q._embed),
      ...page(q._limit, q._offset),
    }, deps.now());
  });
}

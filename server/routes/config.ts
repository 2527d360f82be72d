import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { csv } from '../services/query';
import { getConfig } from '../services/config';
import { query, uuidList } from './schemas';

export function registerConfigRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/config', {
    schema: {
      querystring: query({
        'key._in': { type: 'string', maxLength: 200, pattern: '^[a-z_]+(,[a-z_]+)*$' },
        'resource_id._in': uuidList,
      }),
    },
  }, async (request) => {
    const q = request.query as Record<string, string | undefined>;
    const seller = await sellerOf(deps, request);
    return getConfig(seller, { keys: csv(q['key._in']), resourceIds: csv(q['resource_id._in']) });
  });
}

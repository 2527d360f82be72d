import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { parseEmbed } from '../services/query';
import { getTicketGroup } from '../services/catalog';
import { embed, idParams, query } from './schemas';

export function registerTicketGroupRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/ticket_group/:id', { schema: { params: idParams, querystring: query({ _embed: embed }) } }, async (request) => {
    const { id } = request.params as { id: string };
    const seller = await sellerOf(deps, request);
    return getTicketGroup(deps.db, seller, id, parseEmbed((request.query as { _embed?: string })._embed), deps.now());
  });
}

import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { csv, flag, instant, isoDate, page, parseEmbed } from '../services/query';
import { getSession, listSessions, sessionsForQuantities, type SessionListOptions } from '../services/sessions';
import { catalogueRoutes } from '../../src/contract/catalogue';

type ListQuery = Static<typeof catalogueRoutes.sessions.schema.querystring>;

/** Plain dates in these filters are venue-local days; the service knows the venue, so they start at the seller's. */
function listOptions(q: ListQuery, seller: { timezone: string }, includeSoldOutDefault: boolean): SessionListOptions {
  return {
    ...page(q._limit, q._offset),
    // sold_out=T shows sold-out sessions too (default F hides them); POST uses _include_sold_out.
    includeSoldOut: flag(q._include_sold_out, flag(q.sold_out, includeSoldOutDefault)),
    descending: q._sort === '-start_datetime',
    gte: instant('start_datetime._gte', q['start_datetime._gte'], seller.timezone),
    lt: instant('start_datetime._lt', q['start_datetime._lt'], seller.timezone),
    ondate: isoDate('start_datetime._ondate', q['start_datetime._ondate']),
    groupIds: csv(q['ticket_group_id._in'] ?? q['ticket_group.id._in'])?.map((s) => s.toLowerCase()),
    embed: parseEmbed(q._embed),
  };
}

export function registerSessionRoutes(app: FastifyInstance, deps: Deps) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.route({
    ...catalogueRoutes.sessions,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      return listSessions(deps.db, seller, request.params.id, listOptions(request.query, seller, false), deps.now());
    },
  });

  api.route({
    ...catalogueRoutes.sessionsForQuantities,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const lines = request.body.tickets.map((t) => ({ ...t, ticket_type_id: t.ticket_type_id.toLowerCase() }));
      return sessionsForQuantities(deps.db, seller, request.params.id, lines, listOptions(request.query, seller, false), deps.now());
    },
  });

  api.route({
    ...catalogueRoutes.session,
    handler: async (request) => {
      const { id, sid } = request.params;
      const q = request.query;
      const seller = await sellerOf(deps, request);
      return getSession(
        deps.db,
        seller,
        id,
        sid.toLowerCase(),
        {
          groupIds: csv(q['ticket_group_id._in'])?.map((s) => s.toLowerCase()),
          hiddenTypes: csv(q['hidden_type._in']),
          embed: parseEmbed(q._embed),
        },
        deps.now(),
      );
    },
  });
}

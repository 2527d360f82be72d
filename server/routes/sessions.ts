import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { parseEmbed } from '../services/query';
import { csv, flag, instant, isoDate, page } from '../services/query';
import { getSession, listSessions, sessionsForQuantities, type SessionListOptions, type TicketLine } from '../services/sessions';
import type { Seller } from '../db/types';
import {
  boolFlag, dateOrDateTime, embed, hiddenTypeList, idParams, isoDate as isoDateSchema, limit, offset, query, sessionSort, ticketLines, uuid, uuidList,
} from './schemas';

type Query = Record<string, string | undefined> & { _limit?: number; _offset?: number };

const listQuery = query({
  _limit: limit, _offset: offset, _sort: sessionSort, _embed: embed,
  sold_out: boolFlag, _include_sold_out: boolFlag,
  'start_datetime._gte': dateOrDateTime, 'start_datetime._lt': dateOrDateTime, 'start_datetime._ondate': isoDateSchema,
  'ticket_group_id._in': uuidList, 'ticket_group.id._in': uuidList,
});

/** Plain dates in these filters are venue-local days; the service knows the venue, so they start at the seller's. */
function listOptions(q: Query, seller: Seller, includeSoldOutDefault: boolean): SessionListOptions {
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
  app.get('/events/:id/sessions', { schema: { params: idParams, querystring: listQuery } }, async (request) => {
    const { id } = request.params as { id: string };
    const seller = await sellerOf(deps, request);
    return listSessions(deps.db, seller, id, listOptions(request.query as Query, seller, false), deps.now());
  });

  app.post('/events/:id/sessions', {
    schema: {
      params: idParams, querystring: listQuery,
      body: { type: 'object', required: ['tickets'], properties: { tickets: ticketLines } },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const seller = await sellerOf(deps, request);
    const { tickets } = request.body as { tickets: TicketLine[] };
    const lines = tickets.map((t) => ({ ...t, ticket_type_id: t.ticket_type_id.toLowerCase() }));
    return sessionsForQuantities(deps.db, seller, id, lines, listOptions(request.query as Query, seller, false), deps.now());
  });

  app.get('/events/:id/sessions/:sid', {
    schema: {
      params: { type: 'object', required: ['id', 'sid'], properties: { id: uuid, sid: uuid } },
      querystring: query({ _embed: embed, 'ticket_group_id._in': uuidList, 'hidden_type._in': hiddenTypeList }),
    },
  }, async (request) => {
    const { id, sid } = request.params as { id: string; sid: string };
    const q = request.query as Query;
    const seller = await sellerOf(deps, request);
    return getSession(deps.db, seller, id, sid.toLowerCase(), {
      groupIds: csv(q['ticket_group_id._in'])?.map((s) => s.toLowerCase()), hiddenTypes: csv(q['hidden_type._in']), embed: parseEmbed(q._embed),
    }, deps.now());
  });
}

import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { parseEmbed } from '../services/query';
import { getEvent, listAvailableEvents, pricecheck, type EventSort } from '../services/events';
import { csv, flag, instant, invalid, page, timeOfDay } from '../services/query';
import {
  boolFlag, category, safeText, dateOrDateTime, embed, hiddenTypeList, idParams, limit, offset, query, timeOfDay as timeSchema, uuid, uuidList,
} from './schemas';

type Query = Record<string, string | undefined> & { _limit?: number; _offset?: number };

/** metadata.KEY=value query pairs (event_template.metadata[KEY] must equal value). */
function metadataFilters(q: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) {
    if (!k.startsWith('metadata.') || typeof v !== 'string') continue;
    const key = k.slice('metadata.'.length);
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(key)) throw invalid(k, `Invalid query.${k}: metadata keys are letters, digits, _ and -`);
    out[key] = v;
  }
  return out;
}

export function registerEventRoutes(app: FastifyInstance, deps: Deps) {
  app.get('/events/available', {
    schema: {
      querystring: query({
        'hidden_type._in': hiddenTypeList,
        hidden_type: hiddenTypeList,
        category, 'category._in': category,
        'start_datetime._gte': dateOrDateTime, 'start_datetime._lt': dateOrDateTime,
        'time.start': timeSchema, 'time.end': timeSchema,
        _embed: embed, includeSessions: boolFlag,
        _limit: limit, _offset: offset,
        _sort: { type: 'string', enum: ['_rank', '-_rank', 'name', '-name', 'start', '-start'] },
      }, { patternProperties: { '^metadata\\.': safeText } }),
    },
  }, async (request) => {
    const q = request.query as Query;
    const seller = await sellerOf(deps, request);
    const embedSet = parseEmbed(q._embed);
    if (flag(q.includeSessions, false)) embedSet.add('event_session');
    const sort = q._sort ?? '_rank';
    return listAvailableEvents(deps.db, seller, {
      hiddenTypes: csv(q['hidden_type._in'] ?? q.hidden_type) ?? ['public_browsable'],
      categories: csv(q['category._in'] ?? q.category),
      gte: instant('start_datetime._gte', q['start_datetime._gte'], seller.timezone),
      lt: instant('start_datetime._lt', q['start_datetime._lt'], seller.timezone),
      timeStart: timeOfDay('time.start', q['time.start']),
      timeEnd: timeOfDay('time.end', q['time.end']),
      metadata: metadataFilters(q),
      embed: embedSet,
      ...page(q._limit, q._offset),
      sort: { field: sort.replace(/^-/, '') as EventSort, descending: sort.startsWith('-') },
    }, deps.now());
  });

  app.get('/events/:id', {
    schema: {
      params: idParams,
      querystring: query({ _embed: embed, 'ticket_group_id._in': uuidList, 'hidden_type._in': hiddenTypeList }),
    },
  }, async (request) => {
    const q = request.query as Query;
    const { id } = request.params as { id: string };
    const seller = await sellerOf(deps, request);
    return getEvent(deps.db, seller, id, {
      embed: parseEmbed(q._embed), groupIds: csv(q['ticket_group_id._in'])?.map((g) => g.toLowerCase()), hiddenTypes: csv(q['hidden_type._in']),
    }, deps.now());
  });

  app.post('/events/:id/pricecheck', {
    schema: {
      params: idParams,
      querystring: query({}),
      body: {
        type: 'object', required: ['ticket_types_required'],
        properties: { ticket_types_required: { type: 'array', maxItems: 100, items: uuid } },
      },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const body = request.body as { ticket_types_required: string[] };
    const seller = await sellerOf(deps, request);
    return pricecheck(deps.db, seller, id, body.ticket_types_required.map((t) => t.toLowerCase()), deps.now());
  });
}

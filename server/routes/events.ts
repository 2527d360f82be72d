import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { getEvent, listAvailableEvents, pricecheck, type EventSort } from '../services/events';
import { csv, flag, instant, invalid, page, parseEmbed, timeOfDay } from '../services/query';
import { catalogueRoutes } from '../../src/contract/catalogue';

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
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.route({
    ...catalogueRoutes.eventsAvailable,
    handler: async (request) => {
      const q = request.query;
      const seller = await sellerOf(deps, request);
      const embedSet = parseEmbed(q._embed);
      if (flag(q.includeSessions, false)) embedSet.add('event_session');
      const sort = q._sort ?? '_rank';
      return listAvailableEvents(
        deps.db,
        seller,
        {
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
        },
        deps.now(),
      );
    },
  });

  api.route({
    ...catalogueRoutes.event,
    handler: async (request) => {
      const q = request.query;
      const seller = await sellerOf(deps, request);
      return getEvent(
        deps.db,
        seller,
        request.params.id,
        {
          embed: parseEmbed(q._embed),
          groupIds: csv(q['ticket_group_id._in'])?.map((g) => g.toLowerCase()),
          hiddenTypes: csv(q['hidden_type._in']),
        },
        deps.now(),
      );
    },
  });

  api.route({
    ...catalogueRoutes.pricecheck,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      return pricecheck(
        deps.db,
        seller,
        request.params.id,
        request.body.ticket_types_required.map((t) => t.toLowerCase()),
        deps.now(),
      );
    },
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { getCalendar } from '../services/calendar';
import { csv, isoDate } from '../services/query';
import type { TicketLine } from '../services/sessions';
import { idParams, isoDate as isoDateSchema, query, uuid, uuidList } from './schemas';

const calendarQuery = query({
  _format: { type: 'string', enum: ['price', 'extended'] },
  'ticket_group_id._in': uuidList,
  start_date: isoDateSchema,
  end_date: isoDateSchema,
});

export function registerCalendarRoutes(app: FastifyInstance, deps: Deps) {
  const handle = async (request: FastifyRequest, tickets?: TicketLine[]) => {
    const q = request.query as Record<string, string | undefined>;
    const { id } = request.params as { id: string };
    const seller = await sellerOf(deps, request);
    return getCalendar(deps.db, seller, id, {
      format: q._format === 'extended' ? 'extended' : 'price',
      groupIds: csv(q['ticket_group_id._in'])?.map((g) => g.toLowerCase()),
      startDate: isoDate('start_date', q.start_date),
      endDate: isoDate('end_date', q.end_date),
      tickets: tickets?.map((t) => ({ ...t, ticket_type_id: t.ticket_type_id.toLowerCase() })),
    }, deps.now());
  };

  app.get('/events/:id/calendar', { schema: { params: idParams, querystring: calendarQuery } }, (request) => handle(request));

  app.post('/events/:id/calendar', {
    schema: {
      params: idParams,
      querystring: calendarQuery,
      body: {
        type: 'object', required: ['tickets'],
        properties: {
          // The 10-distinct-types rule answers with its own message (context event_calendar), so the
          // schema only bounds the list.
          tickets: {
            type: 'array', maxItems: 100,
            items: {
              type: 'object', additionalProperties: false, required: ['ticket_type_id', 'quantity'],
              properties: { ticket_type_id: uuid, quantity: { type: 'integer', minimum: 1, maximum: 1000 } },
            },
          },
        },
      },
    },
  }, (request) => handle(request, (request.body as { tickets: TicketLine[] }).tickets));
}

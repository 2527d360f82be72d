import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { getCalendar } from '../services/calendar';
import { csv, isoDate } from '../services/query';
import type { TicketLine } from '../services/sessions';
import { catalogueRoutes } from '../../src/contract/catalogue';
import type { FastifyRequest } from 'fastify';

type CalendarQuery = Static<typeof catalogueRoutes.calendar.schema.querystring>;

export function registerCalendarRoutes(app: FastifyInstance, deps: Deps) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const handle = async (request: FastifyRequest, q: CalendarQuery, id: string, tickets?: TicketLine[]) => {
    const seller = await sellerOf(deps, request);
    return getCalendar(
      deps.db,
      seller,
      id,
      {
        format: q._format === 'extended' ? 'extended' : 'price',
        groupIds: csv(q['ticket_group_id._in'])?.map((g) => g.toLowerCase()),
        startDate: isoDate('start_date', q.start_date),
        endDate: isoDate('end_date', q.end_date),
        tickets: tickets?.map((t) => ({ ...t, ticket_type_id: t.ticket_type_id.toLowerCase() })),
      },
      deps.now(),
    );
  };

  api.route({ ...catalogueRoutes.calendar, handler: (request) => handle(request, request.query, request.params.id) });
  api.route({
    ...catalogueRoutes.calendarForQuantities,
    handler: (request) => handle(request, request.query, request.params.id, request.body.tickets),
  });
}

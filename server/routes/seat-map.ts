import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { flag } from '../services/query';
import { readSeatMap } from '../services/seats';
import { seatingRoutes } from '../../src/contract/seating';

export function registerSeatMapRoutes(app: FastifyInstance, deps: Deps) {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...seatingRoutes.seatMap,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const { id, sid } = request.params;
      const withGeometry = flag(request.query._withgeometry, false);
      return readSeatMap(deps.db, seller, id.toLowerCase(), sid.toLowerCase(), { withGeometry }, deps.now());
    },
  });
}

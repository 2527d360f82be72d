import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';

/** Registers every resource's routes; called once for /api and once for /cached_api. */
export async function registerApiRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  void deps;
  void app;
}

import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { DomainError } from '../http/errors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { createFormValidators } from '../forms/validators';
import { catalogueRoutes } from '../../src/contract/catalogue';

/** A day: a seller's survey rarely changes, and a changed survey has a new key. */
const VALIDATOR_CACHE = 'public, max-age=86400';

/** GET form_validator/{key}: a storefront form's precompiled validators as an ES module (server/forms/validators.ts). */
export function registerFormRoutes(app: FastifyInstance, deps: Deps) {
  const validators = createFormValidators(deps.db);
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...catalogueRoutes.formValidator,
    onSend: async (request, reply, payload) => {
      if (reply.statusCode < 400) reply.header('Cache-Control', VALIDATOR_CACHE);
      return payload;
    },
    handler: async (request, reply) => {
      const { key } = request.params;
      const code = await validators.module(key);
      if (!code) throw new DomainError('form_not_found', 'Resource form not found.');
      return reply.type('text/javascript; charset=utf-8').send(code);
    },
  });
}

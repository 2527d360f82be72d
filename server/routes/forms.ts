import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { DomainError } from '../http/errors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { catalogueRoutes } from '../../src/contract/catalogue';

/** A day: a seller's survey rarely changes, and a changed survey has a new key. */
const VALIDATOR_CACHE = 'public, max-age=86400';

/** GET form_validator/{key}: a storefront form's precompiled validators as an ES module (server/forms/validators.ts). */
export function registerFormRoutes(app: FastifyInstance, deps: Deps) {
  // The compiler (@rjsf/validator-ajv8 with ajv's code generator) loads with the first validator asked for.
  let validators: Promise<{ module(key: string): Promise<string | null> }> | undefined;
  const loaded = () => (validators ??= import('../forms/validators').then((m) => m.createFormValidators(deps.db)));
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...catalogueRoutes.formValidator,
    onSend: async (request, reply, payload) => {
      if (reply.statusCode < 400) reply.header('Cache-Control', VALIDATOR_CACHE);
      return payload;
    },
    handler: async (request, reply) => {
      const { key } = request.params;
      const code = await (await loaded()).module(key);
      if (!code) throw new DomainError('form_not_found', 'Resource form not found.');
      return reply.type('text/javascript; charset=utf-8').send(code);
    },
  });
}

import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { table } from '../../src/contract/tables';
import { accountRoutes } from '../../src/contract/account';
import { createGuestIdentity } from '../services/checkout';
import { ensureOwnerCookie } from './cart';

/** POST user: the guest purchaser's identity (spec sections 5 and 7); the checkout refers to it by id. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().route({
    ...accountRoutes.guestIdentity,
    handler: async (request, reply) => {
      const seller = await sellerOf(deps, request);
      const caller = await ensureOwnerCookie(deps, request, reply);
      const b = request.body;
      const id = await createGuestIdentity(deps, seller, caller, b);
      return {
        identity: table([{ id, identity_id: id, first_name: b.first_name.trim(), last_name: b.last_name.trim(), email: b.email.trim() }]),
      };
    },
  });
}

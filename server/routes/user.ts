import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { sellerOf } from '../http/seller';
import { tables } from '../../src/contract/tables';
import { createGuestIdentity, type GuestIdentityBody } from '../services/checkout';
import { ensureOwnerCookie } from './cart';

const field = (max: number) => ({ type: ['string', 'null'], maxLength: max });

/** POST user: the guest purchaser's identity (spec sections 5 and 7); the checkout refers to it by id. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  app.post('/user', {
    schema: {
      querystring: { type: 'object', properties: { _seller: { type: 'string' } } },
      body: {
        type: 'object', required: ['first_name', 'last_name', 'email'], additionalProperties: false,
        properties: {
          first_name: { type: 'string', maxLength: 200 }, last_name: { type: 'string', maxLength: 200 },
          email: { type: 'string', maxLength: 400 }, email_confirm: { type: 'string', maxLength: 400 },
          phone: field(200), zip_code: field(200), zip: field(200), address: field(2000), address_more: field(2000),
          city: field(2000), state: field(2000), region: field(2000), country: field(2000),
          additional_info: { type: 'object', maxProperties: 100 },
        },
      },
    },
  }, async (request, reply) => {
    const seller = await sellerOf(deps, request);
    const caller = await ensureOwnerCookie(deps, request, reply);
    const id = await createGuestIdentity(deps, seller, caller, request.body as GuestIdentityBody);
    const b = request.body as GuestIdentityBody;
    return tables({ identity: [{ id, identity_id: id, first_name: b.first_name.trim(), last_name: b.last_name.trim(), email: b.email.trim() }] });
  });
}

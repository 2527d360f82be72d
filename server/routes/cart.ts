import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { getAuth } from '../http/auth';
import { sellerOf } from '../http/seller';
import { parseEmbed } from '../services/query';
import { OWNER_COOKIE, callerFromToken, isOwnerToken, newOwnerToken, type Caller } from '../services/cart/access';
import { deleteCart, extendCart, modifyCart, type ModifyBody } from '../services/cart/modify';
import { cartView } from '../services/cart/view';

const uuid = { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' };
const nullableUuid = { anyOf: [uuid, { type: 'null' }] };
const idParams = { type: 'object', required: ['id'], properties: { id: uuid } };
const sellerQuery = { type: 'object', properties: { _seller: { type: 'string', maxLength: 80 } } };
const addLine = {
  type: 'object', required: ['ticket_type_id'], additionalProperties: false,
  properties: {
    event_session_id: nullableUuid, ticket_type_id: uuid, seat_id: nullableUuid,
    admit_name: { type: ['string', 'null'], maxLength: 200 }, admit_email: { type: ['string', 'null'], maxLength: 254 },
    face_value: { anyOf: [{ type: 'string', maxLength: 20 }, { type: 'number' }, { type: 'null' }] },
  },
};
const ticketIds = { type: 'array', items: uuid, maxItems: 1000 };
const surveyAnswers = { type: 'object', maxProperties: 50 };
const modifyBody = {
  type: 'object', additionalProperties: false,
  properties: {
    add: { type: 'array', items: addLine, maxItems: 1000 },
    remove: { anyOf: [ticketIds, { type: 'object', required: ['tickets'], additionalProperties: false, properties: { tickets: ticketIds } }] },
    campaign: { type: ['string', 'null'], maxLength: 100 },
    channel_id: { type: 'string', enum: ['web'] },
    additional_info: surveyAnswers,
    create: { type: 'object', additionalProperties: false, properties: {
      channel_id: { type: 'string', enum: ['web'] }, campaign: { type: ['string', 'null'], maxLength: 100 } } },
    reserve: { type: 'object', additionalProperties: false, properties: {
      tickets: { type: 'array', items: addLine, maxItems: 1000 },
      additional_info: { type: 'object', additionalProperties: false, properties: { data: surveyAnswers } } } },
  },
};

/** The caller of a request: the owner-token cookie, and the logged-in user's identity when there is a session. */
export async function callerOf(deps: Deps, request: FastifyRequest): Promise<Caller> {
  const auth = await getAuth(deps, request);
  return callerFromToken(request.cookies?.[OWNER_COOKIE], auth?.identity.id ?? null);
}

/** The caller, giving the browser an owner token first if it has none (httpOnly, SameSite=Lax). */
export async function ensureOwnerCookie(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
  const identityId = (await getAuth(deps, request))?.identity.id ?? null;
  const existing = request.cookies?.[OWNER_COOKIE];
  if (isOwnerToken(existing)) return callerFromToken(existing, identityId);
  const token = newOwnerToken();
  reply.setCookie(OWNER_COOKIE, token, {
    path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', maxAge: 60 * 60 * 24 * 30,
  });
  return callerFromToken(token, identityId);
}

/** Cart contents are private to their owner: never stored by a shared cache. */
export const privateNoStore = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  reply.header('Cache-Control', 'private, no-store');
  return payload;
};

export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const view = async (request: FastifyRequest, id: string, caller?: Caller) => {
    const q = request.query as { _embed?: string; all_tickets?: boolean };
    return cartView(deps, id, caller ?? await callerOf(deps, request), { embed: parseEmbed(q._embed), allTickets: q.all_tickets === true });
  };

  // A cart belongs to one seller; requests about it need not name the seller.
  const sellerOfCart = async (request: FastifyRequest, cartId: string) => await deps.db.selectFrom('seller')
    .innerJoin('cart', 'cart.seller_id', 'seller.id').selectAll('seller').where('cart.id', '=', cartId).executeTakeFirst()
    ?? sellerOf(deps, request);

  app.post('/cart/modify', { schema: { querystring: sellerQuery, body: modifyBody } }, async (request, reply) => {
    const seller = await sellerOf(deps, request);
    const caller = await ensureOwnerCookie(deps, request, reply);
    const id = await modifyCart(deps, { seller, caller, body: (request.body ?? {}) as ModifyBody });
    return view(request, id, caller);
  });

  app.post('/cart/:id/modify', { schema: { params: idParams, querystring: sellerQuery, body: modifyBody } }, async (request) => {
    const { id } = request.params as { id: string };
    await modifyCart(deps, { seller: await sellerOfCart(request, id), caller: await callerOf(deps, request), cartId: id, body: (request.body ?? {}) as ModifyBody });
    return view(request, id);
  });

  app.post('/cart/:id/remove', {
    schema: { params: idParams, body: { type: 'object', required: ['tickets'], additionalProperties: false, properties: { tickets: ticketIds } } },
  }, async (request) => {
    const { id } = request.params as { id: string };
    await modifyCart(deps, { seller: await sellerOfCart(request, id), caller: await callerOf(deps, request), cartId: id, body: { remove: (request.body as { tickets: string[] }).tickets } });
    return view(request, id);
  });

  app.get('/cart/:id', {
    schema: { params: idParams, querystring: { type: 'object', properties: {
      _seller: { type: 'string' }, _embed: { type: 'string', maxLength: 500 }, all_tickets: { type: 'boolean' },
      _limit: { type: 'integer', minimum: 1, maximum: 1000 } } } },
    onSend: privateNoStore,
  }, async (request) => view(request, (request.params as { id: string }).id));

  app.delete('/cart/:id', { schema: { params: idParams } }, async (request) => {
    const { id } = request.params as { id: string };
    await deleteCart(deps, id, await callerOf(deps, request));
    return { cart: { _data: [{ id, state: 'cancelled' }], _count: 1 } };
  });

  app.patch('/my/cart/:id', {
    schema: { params: idParams, body: { type: 'object', additionalProperties: false, properties: { expires_at: { type: 'string', maxLength: 40 } } } },
  }, async (request) => {
    const { id } = request.params as { id: string };
    await extendCart(deps, id, await callerOf(deps, request));
    return view(request, id);
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { requireAuth } from '../http/auth';
import { sellerOf } from '../http/seller';
import { tables } from '../../src/contract/tables';
import { parseEmbed } from '../services/query';
import { identityWire, patchProfile, putProfile, userWire, type ProfileBody } from '../services/auth/account';
import { myMemberships, myOrders, mySessions } from '../services/auth/my-reads';
import { resendMine } from '../services/auth/resend';
import { sessionAuth, SESSION_COOKIE } from '../services/auth/sessions';
import { retryAfter } from './auth';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const uuid = { type: 'string', pattern: UUID };
const nullable = (max: number) => ({ type: ['string', 'null'], maxLength: max });
const listQuery = (extra: Record<string, object> = {}) => ({ type: 'object', properties: {
  _seller: { type: 'string', maxLength: 100 }, _embed: { type: 'string', maxLength: 500, pattern: '^[A-Za-z0-9_.,]*$' },
  _limit: { type: 'integer', minimum: 1, maximum: 1000 }, _offset: { type: 'integer', minimum: 0, maximum: 1_000_000 }, ...extra } });
const profileBody = {
  type: 'object', additionalProperties: false,
  properties: {
    id: uuid, identity_id: uuid, first_name: { type: 'string', maxLength: 200 }, last_name: { type: 'string', maxLength: 200 },
    email: { type: 'string', maxLength: 400 }, email_confirm: { type: 'string', maxLength: 400 }, password: { type: 'string', maxLength: 1024 },
    phone: nullable(200), address: nullable(2000), address_more: nullable(2000), city: nullable(2000), state: nullable(2000),
    region: nullable(2000), country: nullable(2000), zip_code: nullable(200), additional_info: { type: 'object', maxProperties: 100 },
  },
};

/** Account data is private to its user: never kept by a shared cache. */
const privateNoStore = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  reply.header('Cache-Control', 'private, no-store');
  return payload;
};
const page = (q: { _limit?: number; _offset?: number }) => ({ limit: Math.min(q._limit ?? 100, 100), offset: q._offset ?? 0 });

/** The account area: my/user, my/ticket_order, my/order_session, my/membership, my/ticket_order/resend. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const auth = async (request: FastifyRequest) => requireAuth(deps, request, await sellerOf(deps, request));
  const userView = async (request: FastifyRequest) => {
    // Read again after a change: the answer shows what is stored.
    const seller = await sellerOf(deps, request);
    const fresh = (await sessionAuth(deps, request.cookies?.[SESSION_COOKIE], seller.id))!;
    const embed = parseEmbed((request.query as { _embed?: string })._embed);
    return tables({ user: [userWire(fresh.user)], identity: [identityWire(fresh.identity, embed.has('identity.meta'))] });
  };

  app.get('/my/user', { schema: { querystring: listQuery() }, onSend: privateNoStore }, async (request) => {
    await auth(request);
    return userView(request);
  });

  app.patch('/my/user/:id', {
    schema: { params: { type: 'object', required: ['id'], properties: { id: uuid } }, querystring: listQuery(), body: profileBody },
    onSend: privateNoStore,
  }, async (request) => {
    await patchProfile(deps, await auth(request), (request.params as { id: string }).id, (request.body ?? {}) as ProfileBody);
    return userView(request);
  });

  app.put('/my/user', { schema: { querystring: listQuery(), body: profileBody }, onSend: privateNoStore }, async (request) => {
    await putProfile(deps, await auth(request), (request.body ?? {}) as ProfileBody);
    return userView(request);
  });

  app.get('/my/ticket_order', {
    schema: { querystring: listQuery({ 'id._in': { type: 'string', maxLength: 3700, pattern: `^(${UUID.slice(1, -1)})(,(${UUID.slice(1, -1)}))*$` } }) },
    onSend: privateNoStore,
  }, async (request) => {
    const { identity } = await auth(request);
    const q = request.query as { _embed?: string; _limit?: number; _offset?: number; 'id._in'?: string };
    return myOrders(deps, identity.id, { embed: parseEmbed(q._embed), ...page(q), ids: q['id._in']?.split(',') });
  });

  app.get('/my/order_session', {
    schema: { querystring: listQuery({
      'ticket.state._in': { type: 'string', maxLength: 100, pattern: '^(booked|redeemed|cancelled|unbooked)(,(booked|redeemed|cancelled|unbooked))*$' },
      'start_datetime._gte': { type: 'string', format: 'date-time' }, id: uuid }) },
    onSend: privateNoStore,
  }, async (request) => {
    const { identity } = await auth(request);
    const q = request.query as { _embed?: string; _limit?: number; _offset?: number; 'ticket.state._in'?: string; 'start_datetime._gte'?: string; id?: string };
    return mySessions(deps, identity.id, {
      embed: parseEmbed(q._embed), ...page(q), states: (q['ticket.state._in'] ?? 'booked,redeemed').split(','),
      from: q['start_datetime._gte'] ? new Date(q['start_datetime._gte']) : undefined, id: q.id,
    });
  });

  app.get('/my/membership', { schema: { querystring: listQuery() }, onSend: privateNoStore }, async (request) => {
    const { identity } = await auth(request);
    const q = request.query as { _embed?: string; _limit?: number; _offset?: number };
    return myMemberships(deps, identity.id, { embed: parseEmbed(q._embed), ...page(q) });
  });

  app.post('/my/ticket_order/resend', {
    schema: { querystring: listQuery(), body: { type: 'object', additionalProperties: false, properties: { memberships_only: { type: 'boolean' } } } },
    onError: retryAfter,
  }, async (request) => {
    const seller = await sellerOf(deps, request);
    const { identity } = await requireAuth(deps, request, seller);
    const sent = await resendMine(deps, seller, identity.id, (request.body as { memberships_only?: boolean } | undefined)?.memberships_only === true);
    return { ticket_order: { _data: [], _count: sent } };
  });
}

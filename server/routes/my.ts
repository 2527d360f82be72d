import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { getAuth, requireAuth } from '../http/auth';
import { sellerOf } from '../http/seller';
import { accountRoutes, type UserAnswer } from '../../src/contract/account';
import { parseEmbed } from '../services/query';
import { patchProfile, putProfile, userAnswer } from '../services/auth/account';
import { myMemberships, myOrders, mySessions } from '../services/auth/my-reads';
import { resendMine } from '../services/auth/resend';
import { retryAfter } from './auth';
import { savedPaymentRoutes } from '../../src/contract/saved-payment';
import { listSavedMethods, removeSavedMethod } from '../services/saved-payment-methods';

/** Account data is private to its user: never kept by a shared cache. */
const privateNoStore = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  reply.header('Cache-Control', 'private, no-store');
  return payload;
};
const page = (q: { _limit?: number; _offset?: number }) => ({ limit: Math.min(q._limit ?? 100, 100), offset: q._offset ?? 0 });

/**
 * The account area: my/user, my/ticket_order, my/order_session, my/membership, my/ticket_order/resend,
 * my/identity/saved_payment_method.
 */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const auth = async (request: FastifyRequest) => requireAuth(deps, request, await sellerOf(deps, request));
  const userView = async (request: FastifyRequest, embedParam: string | undefined): Promise<UserAnswer> => {
    // Read again after a change: the answer shows what is stored.
    const seller = await sellerOf(deps, request);
    const fresh = (await getAuth(deps, request, seller, { fresh: true }))!;
    return userAnswer(fresh, parseEmbed(embedParam).has('identity.meta'));
  };

  api.route({
    ...accountRoutes.myUser,
    onSend: privateNoStore,
    handler: async (request) => {
      await auth(request);
      return userView(request, request.query._embed);
    },
  });

  api.route({
    ...accountRoutes.patchMyUser,
    onSend: privateNoStore,
    handler: async (request) => {
      await patchProfile(deps, await auth(request), request.params.id, request.body);
      return userView(request, request.query._embed);
    },
  });

  api.route({
    ...accountRoutes.putMyUser,
    onSend: privateNoStore,
    handler: async (request) => {
      await putProfile(deps, await auth(request), request.body);
      return userView(request, request.query._embed);
    },
  });

  api.route({
    ...accountRoutes.myOrders,
    onSend: privateNoStore,
    handler: async (request) => {
      const { identity } = await auth(request);
      const q = request.query;
      return myOrders(deps, identity.id, { embed: parseEmbed(q._embed), ...page(q), ids: q['id._in']?.split(',') });
    },
  });

  api.route({
    ...accountRoutes.mySessions,
    onSend: privateNoStore,
    handler: async (request) => {
      const { identity } = await auth(request);
      const q = request.query;
      return mySessions(deps, identity.id, {
        embed: parseEmbed(q._embed),
        ...page(q),
        states: (q['ticket.state._in'] ?? 'booked,redeemed').split(','),
        from: q['start_datetime._gte'] ? new Date(q['start_datetime._gte']) : undefined,
        id: q.id,
      });
    },
  });

  api.route({
    ...accountRoutes.myMemberships,
    onSend: privateNoStore,
    handler: async (request) => {
      const { identity } = await auth(request);
      const q = request.query;
      return myMemberships(deps, identity.id, { embed: parseEmbed(q._embed), ...page(q) });
    },
  });

  api.route({
    ...accountRoutes.myResend,
    onError: retryAfter,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const { identity } = await requireAuth(deps, request, seller);
      return resendMine(deps, seller, identity.id, request.body?.memberships_only === true);
    },
  });

  api.route({
    ...savedPaymentRoutes.list,
    onSend: privateNoStore,
    handler: async (request) => {
      const { identity } = await auth(request);
      return listSavedMethods(deps, (await sellerOf(deps, request)).id, identity.id);
    },
  });

  api.route({
    ...savedPaymentRoutes.remove,
    onSend: privateNoStore,
    handler: async (request) => {
      const { identity } = await auth(request);
      return removeSavedMethod(deps, (await sellerOf(deps, request)).id, identity.id, request.params.id);
    },
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { requireAuth } from '../http/auth';
import { sellerOf } from '../http/seller';
import { table } from '../../src/contract/tables';
import { membershipRoutes, type GiftCheckoutBody } from '../../src/contract/membership';
import { parseEmbed } from '../services/query';
import { membershipQrPng, membershipRules } from '../services/membership/reads';
import { createGiftee, giftCheckout, giftCodeLookup, redeemGiftCode } from '../services/membership/gifts';
import { cancelAutoRenew } from '../services/membership/auto-renew';
import { callerOf, ensureOwnerCookie, privateNoStore } from './cart';
import { checkoutAnswer } from './checkout';

/** Memberships (issue 12): level rules, gifts of membership and their codes, auto-renew, the membership card. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.route({
    ...membershipRoutes.rules,
    handler: async (request) => membershipRules(deps, await sellerOf(deps, request), parseEmbed(request.query._embed)),
  });

  api.route({
    ...membershipRoutes.giftCode,
    onSend: privateNoStore,
    handler: async (request) => giftCodeLookup(deps, await sellerOf(deps, request), request.params.code, request.ip),
  });

  api.route({
    ...membershipRoutes.redeem,
    onSend: privateNoStore,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const auth = await requireAuth(deps, request, seller);
      return redeemGiftCode(deps, seller, auth.identity.id, request.params.code, request.ip);
    },
  });

  api.route({
    ...membershipRoutes.giftee,
    handler: async (request, reply) => {
      const seller = await sellerOf(deps, request);
      const caller = await ensureOwnerCookie(deps, request, reply);
      return { giftee: table([await createGiftee(deps, seller, caller, request.body)]) };
    },
  });

  const gift = async (request: FastifyRequest, reply: FastifyReply, id: string, body: GiftCheckoutBody) => {
    const caller = await callerOf(deps, request);
    return checkoutAnswer(deps, await giftCheckout(deps, id, caller, body), caller, reply);
  };
  api.route({ ...membershipRoutes.giftCheckout, handler: (request, reply) => gift(request, reply, request.params.id, request.body) });
  api.route({
    ...membershipRoutes.myGiftCheckout,
    handler: async (request, reply) => {
      await requireAuth(deps, request, await sellerOf(deps, request));
      return gift(request, reply, request.params.id, request.body);
    },
  });

  api.route({
    ...membershipRoutes.cancelAutoRenew,
    onSend: privateNoStore,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const auth = await requireAuth(deps, request, seller);
      return cancelAutoRenew(deps, seller.id, auth.identity.id, request.params.id);
    },
  });

  api.route({
    ...membershipRoutes.qrcode,
    onSend: privateNoStore,
    handler: async (request, reply) => {
      const seller = await sellerOf(deps, request);
      const auth = await requireAuth(deps, request, seller);
      return reply.type('image/png').send(await membershipQrPng(deps, auth.identity.id, request.params.id));
    },
  });
}

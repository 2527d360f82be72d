import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { cartRoutes, ORDER_TOKEN_HEADER } from '../../src/contract/cart';
import type { Deps } from '../deps';
import { parseEmbed } from '../services/query';
import { orderQrPng, orderView } from '../services/orders';
import { callerOf, ensureOwnerCookie, privateNoStore } from './cart';
import { MANAGE_SIGNATURE_HEADER, selfEditRoutes } from '../../src/contract/self-edit';
import { cancelTickets, emailOrder, rescheduleTickets, selfEditView } from '../services/self-edit';

/** The per-order access token comes in its header only (issue 20, finding 9: an address lands in logs and history). */
const accessTokenOf = (request: FastifyRequest) => {
  const header = request.headers[ORDER_TOKEN_HEADER];
  return typeof header === 'string' ? header : undefined;
};

/** The signature of the order e-mail's manage link, in its header (the manage screen sends it). */
const signatureOf = (request: FastifyRequest) => {
  const header = request.headers[MANAGE_SIGNATURE_HEADER];
  return typeof header === 'string' ? header : undefined;
};

/** An order's QR code is private but immutable: the owner's browser may keep it. */
const privateImage = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  reply.header('Cache-Control', 'private, max-age=3600');
  return payload;
};

export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.route({
    ...cartRoutes.order,
    onSend: privateNoStore,
    handler: async (request) =>
      orderView(deps, request.params.id, await callerOf(deps, request), {
        accessToken: accessTokenOf(request),
        embed: parseEmbed(request.query._embed),
      }),
  });

  api.route({
    ...cartRoutes.orderQr,
    onSend: privateImage,
    handler: async (request, reply) => {
      const png = await orderQrPng(deps, request.params.id, await callerOf(deps, request), accessTokenOf(request));
      return reply.type('image/png').send(png);
    },
  });

  api.route({
    ...selfEditRoutes.selfEdit,
    onSend: privateNoStore,
    handler: async (request) => selfEditView(deps, request.params.id, await callerOf(deps, request), signatureOf(request)),
  });

  api.route({
    ...selfEditRoutes.cancel,
    onSend: privateNoStore,
    handler: async (request) =>
      cancelTickets(deps, request.params.id, await callerOf(deps, request), request.body.tickets, signatureOf(request)),
  });

  api.route({
    ...selfEditRoutes.reschedule,
    onSend: privateNoStore,
    // The edit cart is this browser's (its owner cookie, given now when it has none: a visitor who came by the link).
    handler: async (request, reply) =>
      rescheduleTickets(deps, request.params.id, await ensureOwnerCookie(deps, request, reply), request.body, signatureOf(request)),
  });

  api.route({
    ...selfEditRoutes.email,
    onSend: privateNoStore,
    handler: async (request) =>
      emailOrder(deps, request.params.id, await callerOf(deps, request), request.body.log_context, signatureOf(request)),
  });
}

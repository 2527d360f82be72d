import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { parseEmbed } from '../services/query';
import { orderQrPng, orderView } from '../services/orders';
import { callerOf, privateNoStore } from './cart';

const uuid = { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' };
const params = { type: 'object', required: ['id'], properties: { id: uuid } };
const tokenQuery = { _seller: { type: 'string' }, access_token: { type: 'string', maxLength: 64 } };

/** The per-order access token may come as ?access_token= or the X-Order-Access-Token header. */
const accessTokenOf = (request: FastifyRequest) =>
  (request.query as { access_token?: string }).access_token ?? (request.headers['x-order-access-token'] as string | undefined);

/** An order's QR code is private but immutable: the owner's browser may keep it. */
const privateImage = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  reply.header('Cache-Control', 'private, max-age=3600');
  return payload;
};

export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  app.get('/ticket_order/:id', {
    schema: { params, querystring: { type: 'object', properties: { ...tokenQuery, _embed: { type: 'string', maxLength: 500 } } } },
    onSend: privateNoStore,
  }, async (request) => {
    const { id } = request.params as { id: string };
    return orderView(deps, id, await callerOf(deps, request), {
      accessToken: accessTokenOf(request), embed: parseEmbed((request.query as { _embed?: string })._embed),
    });
  });

  app.get('/ticket_order/:id/qrcode', {
    schema: { params, querystring: { type: 'object', properties: tokenQuery } },
    onSend: privateImage,
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const png = await orderQrPng(deps, id, await callerOf(deps, request), accessTokenOf(request));
    return reply.type('image/png').send(png);
  });
}

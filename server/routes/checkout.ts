import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { checkoutCart, type CheckoutBody } from '../services/checkout';
import { orderView } from '../services/orders';
import { callerOf } from './cart';

const uuid = { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' };
const checkoutSchema = {
  params: { type: 'object', required: ['id'], properties: { id: uuid } },
  body: {
    type: 'object', required: ['amount', 'gateway_id'], additionalProperties: false,
    properties: {
      amount: { anyOf: [{ type: 'string', maxLength: 20 }, { type: 'number' }] },
      gateway_id: { type: 'string', maxLength: 20 },
      gateway_data: { type: 'object', maxProperties: 20 },
      guest_identity_id: uuid,
      giver_identity_id: uuid,
      send_email: { type: 'boolean' },
      auto_renew: { type: 'boolean' },
      captcha: { type: 'object' },
    },
  },
};

/** POST cart/{id}/guest_checkout and cart/{id}/pay: one service; the response embeds the booked order. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const handler = async (request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    const caller = await callerOf(deps, request);
    const { orderId, accessToken } = await checkoutCart(deps, id, caller, request.body as CheckoutBody);
    const out = await orderView(deps, orderId, caller, { accessToken, embed: new Set() });
    // The access token lets the confirmation page read the order; it is shown this once.
    (out.ticket_order._data[0] as Record<string, unknown>).access_token = accessToken;
    return out;
  };
  app.post('/cart/:id/guest_checkout', { schema: checkoutSchema }, handler);
  app.post('/cart/:id/pay', { schema: checkoutSchema }, handler);
}

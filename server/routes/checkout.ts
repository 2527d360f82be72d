import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { checkoutCart } from '../services/checkout';
import { orderView } from '../services/orders';
import { cartRoutes, type CheckoutBody } from '../../src/contract/cart';
import { callerOf } from './cart';
import type { Caller } from '../services/cart/access';

/** The answer of every checkout: the booked order, with the access token that lets this browser read it (shown once). */
export async function bookedOrderAnswer(deps: Deps, orderId: string, caller: Caller, accessToken: string) {
  const out = await orderView(deps, orderId, caller, { accessToken, embed: new Set() });
  out.ticket_order._data[0].access_token = accessToken;
  return out;
}

/** POST cart/{id}/guest_checkout and cart/{id}/pay: one service; the response embeds the booked order. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const handler = async (request: FastifyRequest, id: string, body: CheckoutBody) => {
    const caller = await callerOf(deps, request);
    const { orderId, accessToken } = await checkoutCart(deps, id, caller, body);
    return bookedOrderAnswer(deps, orderId, caller, accessToken);
  };
  api.route({ ...cartRoutes.guestCheckout, handler: (request) => handler(request, request.params.id, request.body) });
  api.route({ ...cartRoutes.pay, handler: (request) => handler(request, request.params.id, request.body) });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { checkoutCart, type CheckoutResult } from '../services/checkout';
import { table } from '../../src/contract/tables';
import { editedOrderAnswer, orderView } from '../services/orders';
import { cartView } from '../services/cart/view';
import { cartRoutes, type CheckoutBody } from '../../src/contract/cart';
import { callerOf } from './cart';
import type { Caller } from '../services/cart/access';

/** The answer of every checkout: the booked order, with the access token that lets this browser read it (shown once). */
export async function bookedOrderAnswer(deps: Deps, orderId: string, caller: Caller, accessToken: string) {
  const out = await orderView(deps, orderId, caller, { accessToken, embed: new Set() });
  out.ticket_order._data[0].access_token = accessToken;
  return out;
}

/** A checkout's outcome on the wire: the booked order (200), or 202 while the provider clears the payment. */
export async function checkoutAnswer(deps: Deps, result: CheckoutResult, caller: Caller, reply: FastifyReply) {
  if (result.kind === 'pending') {
    reply.code(202);
    return { pending_payment: table([{ cart_id: result.cartId, cart_number: result.cartNumber, status: 'processing' as const }]) };
  }
  // A gift card paid part of it: the refreshed cart, no order (the spec's `partial` result).
  if (result.kind === 'partial') return cartView(deps, result.cartId, caller, { embed: new Set() });
  // An edit booked into its order (issue 17): the caller owned the edit cart it paid for; the order as it is now.
  if (result.edit) return editedOrderAnswer(deps, result.orderId);
  return bookedOrderAnswer(deps, result.orderId, caller, result.accessToken);
}

/** POST cart/{id}/guest_checkout and cart/{id}/pay: one service; the response embeds the booked order. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const handler = async (request: FastifyRequest, reply: FastifyReply, id: string, body: CheckoutBody) => {
    const caller = await callerOf(deps, request);
    return checkoutAnswer(deps, await checkoutCart(deps, id, caller, body), caller, reply);
  };
  api.route({ ...cartRoutes.guestCheckout, handler: (request, reply) => handler(request, reply, request.params.id, request.body) });
  api.route({ ...cartRoutes.pay, handler: (request, reply) => handler(request, reply, request.params.id, request.body) });
}

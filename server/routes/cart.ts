import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { getAuth } from '../http/auth';
import { sellerOf } from '../http/seller';
import { parseEmbed } from '../services/query';
import {
  OWNER_COOKIE,
  callerFromToken,
  sellerOfCart as cartSeller,
  isOwnerToken,
  newOwnerToken,
  type Caller,
} from '../services/cart/access';
import { deleteCart, extendCart, modifyCart } from '../services/cart/modify';
import { cartView } from '../services/cart/view';
import { reserveInOneStatement } from '../services/cart/fast-reserve';
import { table } from '../../src/contract/tables';
import { cartRoutes } from '../../src/contract/cart';
import { promoRoutes, type ApplyCodeBody } from '../../src/contract/promo';
import { applyCodes, lookupCode } from '../services/cart/apply-code';
import { money } from '../../src/domain/money';
import { hit, refund } from '../services/auth/rate-limit';
import { retryAfter } from '../http/retry-after';
import { cartTransferRoutes } from '../../src/contract/cart-transfer';
import { claimCart, createTransfer } from '../services/cart/transfer';

/** The caller of a request: the owner-token cookie, and the logged-in user's identity when there is a session. */
export async function callerOf(deps: Deps, request: FastifyRequest): Promise<Caller> {
  const auth = await getAuth(deps, request);
  return callerFromToken(request.cookies?.[OWNER_COOKIE], auth?.identity.id ?? null, request.ip);
}

/** The caller, giving the browser an owner token first if it has none (httpOnly, SameSite=Lax). */
export async function ensureOwnerCookie(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<Caller> {
  const identityId = (await getAuth(deps, request))?.identity.id ?? null;
  const existing = request.cookies?.[OWNER_COOKIE];
  if (isOwnerToken(existing)) return callerFromToken(existing, identityId, request.ip);
  const token = newOwnerToken();
  reply.setCookie(OWNER_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: 60 * 60 * 24 * 30,
  });
  return { ...callerFromToken(token, identityId, request.ip), freshToken: true };
}

/** Cart contents are private to their owner: never stored by a shared cache. */
export const privateNoStore = async (_req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  reply.header('Cache-Control', 'private, no-store');
  return payload;
};

export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const view = async (request: FastifyRequest, query: { _embed?: string; all_tickets?: boolean }, id: string, caller?: Caller) =>
    cartView(deps, id, caller ?? (await callerOf(deps, request)), {
      embed: parseEmbed(query._embed),
      allTickets: query.all_tickets === true,
    });

  // A cart belongs to one seller; requests about it need not name the seller.
  const sellerOfCart = async (request: FastifyRequest, cartId: string) => (await cartSeller(deps.db, cartId)) ?? sellerOf(deps, request);

  api.route({
    ...cartRoutes.create,
    handler: async (request, reply) => {
      const seller = await sellerOf(deps, request);
      const caller = await ensureOwnerCookie(deps, request, reply);
      // A new guest cart of one session is reserved in one statement (the on-sale path); anything else is locked.
      const fast = await reserveInOneStatement(deps, { seller, caller, body: request.body ?? {}, embed: parseEmbed(request.query._embed) });
      if (fast) return fast;
      const id = await modifyCart(deps, { seller, caller, body: request.body ?? {} });
      return view(request, request.query, id, caller);
    },
  });

  api.route({
    ...cartRoutes.modify,
    handler: async (request) => {
      const { id } = request.params;
      await modifyCart(deps, {
        seller: await sellerOfCart(request, id),
        caller: await callerOf(deps, request),
        cartId: id,
        body: request.body ?? {},
      });
      return view(request, request.query, id);
    },
  });

  api.route({
    ...cartRoutes.remove,
    handler: async (request) => {
      const { id } = request.params;
      await modifyCart(deps, {
        seller: await sellerOfCart(request, id),
        caller: await callerOf(deps, request),
        cartId: id,
        body: { remove: request.body.tickets },
      });
      return view(request, request.query, id);
    },
  });

  api.route({
    ...cartRoutes.get,
    onSend: privateNoStore,
    handler: async (request) => view(request, request.query, request.params.id),
  });

  // Cart transfer (issue 17): a link made by the cart's owner carries it to another browser.
  api.route({
    ...cartTransferRoutes.create,
    onSend: privateNoStore,
    handler: async (request) => {
      const row = await createTransfer(deps, request.params.id, await callerOf(deps, request));
      return { cart_transfer: table([row]) };
    },
  });

  api.route({
    ...cartTransferRoutes.claim,
    onSend: privateNoStore,
    handler: async (request, reply) => {
      const { id } = request.params;
      const { viewAs } = await claimCart(deps, id, await ensureOwnerCookie(deps, request, reply), request.body.token);
      return view(request, request.query, id, viewAs);
    },
  });

  api.route({
    ...cartRoutes.delete,
    handler: async (request) => {
      const { id } = request.params;
      await deleteCart(deps, id, await callerOf(deps, request));
      return { cart: { _data: [{ id, state: 'cancelled' as const }], _count: 1 } };
    },
  });

  api.route({
    ...cartRoutes.extend,
    handler: async (request) => {
      const { id } = request.params;
      await extendCart(deps, id, await callerOf(deps, request));
      return view(request, request.query, id);
    },
  });

  // Promo codes (issue 13): the guest's and the logged-in user's form of the same change.
  // Codes must not be guessable by trying: each try counts against the address, and one that works gives it back.
  const guarded = async <T>(request: FastifyRequest, tries: boolean, run: () => Promise<T>): Promise<T> => {
    if (tries) await hit(deps, 'promo_code_ip', request.ip);
    const out = await run();
    if (tries) await refund(deps, 'promo_code_ip', request.ip);
    return out;
  };
  const apply = async (request: FastifyRequest, id: string, body: ApplyCodeBody, query: { _embed?: string }) => {
    await guarded(request, body.codes.length > 0, async () => applyCodes(deps, id, await callerOf(deps, request), body));
    return view(request, query, id);
  };
  api.route({
    ...promoRoutes.applyCode,
    onError: retryAfter,
    handler: async (request) => apply(request, request.params.id, request.body, request.query),
  });
  api.route({
    ...promoRoutes.myApplyCode,
    onError: retryAfter,
    handler: async (request) => apply(request, request.params.id, request.body, request.query),
  });

  api.route({
    ...promoRoutes.lookup,
    onError: retryAfter,
    handler: async (request) => {
      const seller = await sellerOf(deps, request);
      const { row, types, exhausted } = await guarded(request, true, () =>
        lookupCode(deps, seller, request.params.code, request.query.mode),
      );
      const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
      return {
        code: table([{ code: row.code, cart_mod_id: row.id, valid_from: iso(row.valid_from), valid_to: iso(row.valid_to), exhausted }]),
        cart_mod: table([
          {
            id: row.id,
            name: row.name,
            discount_type: row.discount_type,
            discount: row.discount_type === 'percent' ? String(row.discount_value) : money(row.discount_value),
            blocking_checkout: row.blocking_checkout,
            activating_code_groups: row.activating_code_groups ?? [],
          },
        ]),
        ticket_type: table(
          types.map((t) => ({
            id: t.id,
            name: t.name,
            ticket_group_id: t.ticket_group_id,
            currency_amount: money(t.price),
            discounted_amount: t.discounted_price === null ? null : money(t.discounted_price),
            summary: t.summary,
          })),
        ),
      };
    },
  });
}

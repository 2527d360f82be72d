import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from '../deps';
import { DomainError } from '../http/errors';
import { clearSessionCookie, setSessionCookie } from '../http/auth';
import { resolveSeller, sellerOf } from '../http/seller';
import { table } from '../../src/contract/tables';
import { accountRoutes, type LogoutAnswer, type UserAnswer } from '../../src/contract/account';
import { login } from '../services/auth/login';
import { requestOtp } from '../services/auth/otp';
import { endSession, SESSION_COOKIE } from '../services/auth/sessions';
import { startUserSession } from '../services/auth/login-session';
import { callerOf } from './cart';
import { retryAfter } from '../http/retry-after';

// The 429 hook lives in http/ so that routes auth.ts depends on (cart.ts) can use it too.
export { retryAfter };

/** Logs the user in: a new session token every time, in the session cookie; answers like GET my/user. */
async function startSession(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  sellerId: string,
  cartId?: string,
): Promise<UserAnswer> {
  const { token, answer } = await startUserSession(deps, {
    userId,
    sellerId,
    cartId,
    previousToken: request.cookies?.[SESSION_COOKIE],
    caller: await callerOf(deps, request),
  });
  setSessionCookie(request, reply, token);
  return answer;
}

/** The path of a return address on this storefront (a path, or a URL of PUBLIC_URL's origin); else '/'. */
export function sameSitePath(redirect: string | undefined, publicUrl: string): string {
  if (!redirect || redirect.includes('\\')) return '/';
  try {
    const base = new URL(publicUrl);
    const url = new URL(redirect, base);
    return url.origin === base.origin ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
}

/** POST login, GET sso/start, POST login/request_otp, POST login/otp_verify, POST logout. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.route({
    ...accountRoutes.login,
    onError: retryAfter,
    handler: async (request, reply) => {
      const seller = await sellerOf(deps, request);
      const body = request.body;
      const userId = await login(deps, seller, body, request.ip);
      return startSession(deps, request, reply, userId, seller.id, body.cart_id);
    },
  });

  // Single sign-on (spec section 7: redirect to /api/sso/start with redirect and cart_id): sends the browser to
  // the seller's identity provider with where to come back to. Only paths of this storefront are accepted as
  // the return address, so the route cannot be used as an open redirect.
  api.route({
    ...accountRoutes.ssoStart,
    handler: async (request, reply) => {
      const seller = await sellerOf(deps, request);
      // Seller config is the seller's JSON: read, not trusted to have these types.
      const auth: { method?: unknown; external_login_url?: unknown } = seller.config?.auth ?? {};
      if (auth.method !== 'sso') throw new DomainError('unknown_auth_method', 'Unknown auth method', 'sso', { method: 'sso' });
      if (!auth.external_login_url) throw new DomainError('external_login_url_missing', 'External login URL missing', 'sso');
      const q = request.query;
      const path = sameSitePath(q.redirect, deps.config.publicUrl);
      const target = new URL(String(auth.external_login_url));
      target.searchParams.set('return_to', `${deps.config.publicUrl}${path}`);
      if (q.cart_id) target.searchParams.set('cart_id', q.cart_id);
      target.searchParams.set('state', seller.slug);
      return reply.redirect(target.toString(), 302);
    },
  });

  api.route({
    ...accountRoutes.requestOtp,
    onError: retryAfter,
    handler: async (request) => {
      const body = request.body;
      // `state` carries the seller slug the storefront is showing.
      const seller = body.state ? await resolveSeller(deps, body.state) : await sellerOf(deps, request);
      const method: unknown = seller.config?.auth?.method ?? 'password';
      if (method !== 'otp' && method !== 'otp_or_password') {
        throw new DomainError('unknown_auth_method', 'Unknown auth method', 'request_otp', { method: 'otp' });
      }
      return requestOtp(deps, seller, body.email, request.ip);
    },
  });

  api.route({
    ...accountRoutes.otpVerify,
    onError: retryAfter,
    handler: async (request, reply) => {
      const body = request.body;
      const seller = body.state ? await resolveSeller(deps, body.state) : await sellerOf(deps, request);
      const userId = await login(deps, seller, { method: 'otp', token: body.token, otp: body.otp }, request.ip);
      return startSession(deps, request, reply, userId, seller.id, body.cart_id);
    },
  });

  api.route({
    ...accountRoutes.logout,
    handler: async (request, reply) => {
      await endSession(deps, request.cookies?.[SESSION_COOKIE]);
      clearSessionCookie(request, reply);
      const answer: LogoutAnswer = { logout: table([{ logged_out: true }]) };
      return answer;
    },
  });
}

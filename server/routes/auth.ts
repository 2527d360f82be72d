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
import {
  finishSso,
  requireOidcSettings,
  ssoLogoutUrl,
  SSO_ATTEMPT_MINUTES,
  SSO_COOKIE_PATH,
  SSO_STATE_COOKIE,
  startSso,
} from '../services/auth/oidc';
import { callerOf } from './cart';
import { retryAfter } from '../http/retry-after';
import { hit } from '../services/auth/rate-limit';

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
  ssoIdToken?: string,
): Promise<UserAnswer> {
  const { token, answer } = await startUserSession(deps, {
    userId,
    sellerId,
    cartId,
    ssoIdToken,
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

/** The state cookie of a single sign-on under way: httpOnly, SameSite=Lax (it must come back on the provider's
 *  redirect, a top-level GET), for the sso routes only. */
const ssoCookie = (request: FastifyRequest, maxAge?: number) => ({
  path: SSO_COOKIE_PATH,
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: request.protocol === 'https',
  ...(maxAge ? { maxAge } : {}),
});

/** The sso routes are registered under both API prefixes; /cached_api answers are publicly cacheable, so not there. */
function notCached(request: FastifyRequest) {
  if (request.url.startsWith('/cached_api/')) throw new DomainError('not_found', 'Resource sso not found.', 'sso', { resource: 'sso' });
}

/** POST login, GET sso/start, GET sso/callback, POST login/request_otp, POST login/otp_verify, POST logout. */
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

  // Single sign-on (spec section 7: redirect to /api/sso/start with redirect and cart_id) through OpenID Connect
  // (services/auth/oidc.ts). Only paths of this storefront are kept as the return address, so neither leg can be
  // used as an open redirect. Both answer under /api only: a 302 that sets a cookie is never a cacheable read.
  api.route({
    ...accountRoutes.ssoStart,
    onError: retryAfter,
    handler: async (request, reply) => {
      notCached(request);
      const seller = await sellerOf(deps, request);
      const settings = requireOidcSettings(seller);
      await hit(deps, 'sso_start_ip', `${seller.id}:${request.ip}`);
      const q = request.query;
      const started = await startSso(deps, seller, settings, {
        returnPath: sameSitePath(q.redirect, deps.config.publicUrl),
        cartId: q.cart_id,
      });
      if (!started.ok) {
        request.log.warn({ seller: seller.slug, reason: started.reason }, 'single sign-on provider unavailable');
        return reply.redirect(started.url, 302);
      }
      reply.setCookie(SSO_STATE_COOKIE, started.state, ssoCookie(request, SSO_ATTEMPT_MINUTES * 60));
      return reply.redirect(started.url, 302);
    },
  });

  api.route({
    ...accountRoutes.ssoCallback,
    handler: async (request, reply) => {
      notCached(request);
      const outcome = await finishSso(deps, {
        query: request.query,
        cookieState: request.cookies?.[SSO_STATE_COOKIE],
        fallbackSeller: () => sellerOf(deps, request),
      });
      reply.clearCookie(SSO_STATE_COOKIE, ssoCookie(request));
      if (!outcome.ok) {
        request.log.warn({ auth_error: outcome.code, reason: outcome.reason }, 'single sign-on refused');
        return reply.redirect(outcome.url, 302);
      }
      await startSession(deps, request, reply, outcome.userId, outcome.sellerId, outcome.cartId ?? undefined, outcome.idToken);
      return reply.redirect(outcome.url, 302);
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
      const ended = await endSession(deps, request.cookies?.[SESSION_COOKIE]);
      clearSessionCookie(request, reply);
      // A session begun at the identity provider: the storefront sends the visitor on to end the provider's session.
      let endSessionUrl: string | null = null;
      if (ended?.sso_id_token) {
        const seller = await deps.db.selectFrom('seller').selectAll().where('id', '=', ended.seller_id).executeTakeFirstOrThrow();
        endSessionUrl = await ssoLogoutUrl(deps, seller, ended.sso_id_token).catch((err: Error) => {
          request.log.warn({ reason: err.message }, 'the identity provider could not be asked for its logout address');
          return null;
        });
      }
      const answer: LogoutAnswer = { logout: table([{ logged_out: true, ...(endSessionUrl ? { end_session_url: endSessionUrl } : {}) }]) };
      return answer;
    },
  });
}

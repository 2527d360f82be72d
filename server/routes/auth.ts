import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import { DomainError } from '../http/errors';
import { clearSessionCookie, setSessionCookie } from '../http/auth';
import { resolveSeller, sellerOf } from '../http/seller';
import { tables } from '../../src/contract/tables';
import { identityWire, userWire } from '../services/auth/account';
import { login, type LoginBody } from '../services/auth/login';
import { requestOtp } from '../services/auth/otp';
import { OTP_MINUTES } from '../services/auth/mails';
import { createSession, endSession, sessionAuth, SESSION_COOKIE } from '../services/auth/sessions';
import { callerOf } from './cart';

const str = (max: number) => ({ type: 'string', maxLength: max });
const sellerQuery = { type: 'object', properties: { _seller: { type: 'string', maxLength: 100 } } };
const loginBody = {
  type: 'object', additionalProperties: false,
  properties: {
    method: str(40), username: str(254), email: str(254), password: str(1024), scan_code: str(100), zip_code: str(20),
    last_name: str(100), otp: str(20), token: str(100), cart_id: str(40), state: str(100),
  },
};

/** A 429 tells the browser when to come back. */
export const retryAfter = async (_req: FastifyRequest, reply: FastifyReply, error: Error) => {
  if (error instanceof DomainError && error.code === 'rate_limited') reply.header('Retry-After', String(error.extra?.retry_after ?? 60));
};

/** Logs the user in: a new session token every time, in the session cookie; answers like GET my/user. */
async function startSession(deps: Deps, request: FastifyRequest, reply: FastifyReply, userId: string, sellerId: string, cartId?: string) {
  // A login replaces whatever session this browser had.
  await endSession(deps, request.cookies?.[SESSION_COOKIE]);
  const user = await deps.db.selectFrom('app_user').select(['id', 'seller_id']).where('id', '=', userId).executeTakeFirstOrThrow();
  const { token } = await createSession(deps, user);
  setSessionCookie(request, reply, token);
  const auth = (await sessionAuth(deps, token, sellerId))!;
  if (cartId) await adoptGuestCart(deps, request, cartId, sellerId, auth.identity.id);
  return tables({ user: [userWire(auth.user)], identity: [identityWire(auth.identity, true)] });
}

/**
 * Spec section 3 login payload `cart_id`: the guest cart this browser was filling becomes the user's (one
 * conditional update: still pending, this seller's public identity, and this browser's owner token), so the
 * logged-in checkout needs no guest details. Any other cart is left alone.
 */
async function adoptGuestCart(deps: Deps, request: FastifyRequest, cartId: string, sellerId: string, identityId: string) {
  const caller = await callerOf(deps, request);
  if (!caller.tokenHash || !/^[0-9a-f-]{36}$/i.test(cartId)) return;
  const seller = await deps.db.selectFrom('seller').select('public_identity_id').where('id', '=', sellerId).executeTakeFirst();
  if (!seller?.public_identity_id) return;
  await deps.db.updateTable('cart').set({ identity_id: identityId, owner_token_hash: null })
    .where('id', '=', cartId).where('seller_id', '=', sellerId).where('state', '=', 'pending')
    .where('identity_id', '=', seller.public_identity_id).where('owner_token_hash', '=', caller.tokenHash).execute();
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

/** POST login, POST login/request_otp, POST login/otp_verify, POST logout. */
export default async function register(app: FastifyInstance, deps: Deps): Promise<void> {
  app.post('/login', { schema: { querystring: sellerQuery, body: loginBody }, onError: retryAfter }, async (request, reply) => {
    const seller = await sellerOf(deps, request);
    const body = (request.body ?? {}) as LoginBody;
    const userId = await login(deps, seller, body, request.ip);
    return startSession(deps, request, reply, userId, seller.id, body.cart_id);
  });

  // Single sign-on (spec section 7: redirect to /api/sso/start with redirect and cart_id): sends the browser to
  // the seller's identity provider with where to come back to. Only paths of this storefront are accepted as
  // the return address, so the route cannot be used as an open redirect.
  app.get('/sso/start', {
    schema: { querystring: { type: 'object', properties: { _seller: str(80), redirect: str(500), cart_id: str(40) } } },
  }, async (request, reply) => {
    const seller = await sellerOf(deps, request);
    const auth = (seller.config?.auth ?? {}) as { method?: string; external_login_url?: string | null };
    if (auth.method !== 'sso') throw new DomainError('unknown_auth_method', 'Unknown auth method', 'sso', { method: 'sso' });
    if (!auth.external_login_url) throw new DomainError('external_login_url_missing', 'External login URL missing', 'sso');
    const q = request.query as { redirect?: string; cart_id?: string };
    const path = sameSitePath(q.redirect, deps.config.publicUrl);
    const target = new URL(auth.external_login_url);
    target.searchParams.set('return_to', `${deps.config.publicUrl}${path}`);
    if (q.cart_id) target.searchParams.set('cart_id', q.cart_id);
    target.searchParams.set('state', seller.slug);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/login/request_otp', {
    schema: { querystring: sellerQuery, body: { type: 'object', required: ['email'], additionalProperties: false,
      properties: { email: str(254), state: str(100), provider: str(40) } } },
    onError: retryAfter,
  }, async (request) => {
    const body = request.body as { email: string; state?: string };
    // `state` carries the seller slug the storefront is showing.
    const seller = body.state ? await resolveSeller(deps, body.state) : await sellerOf(deps, request);
    const method = (seller.config?.auth?.method as string | undefined) ?? 'password';
    if (method !== 'otp' && method !== 'otp_or_password') {
      throw new DomainError('unknown_auth_method', 'Unknown auth method', 'request_otp', { method: 'otp' });
    }
    const token = await requestOtp(deps, seller, body.email, request.ip);
    return { token, expires_in: OTP_MINUTES * 60 };
  });

  app.post('/login/otp_verify', {
    schema: { querystring: sellerQuery, body: { type: 'object', required: ['token', 'otp'], additionalProperties: false,
      properties: { token: str(100), otp: str(20), state: str(100), cart_id: str(40) } } },
    onError: retryAfter,
  }, async (request, reply) => {
    const body = request.body as { token: string; otp: string; state?: string; cart_id?: string };
    const seller = body.state ? await resolveSeller(deps, body.state) : await sellerOf(deps, request);
    const userId = await login(deps, seller, { method: 'otp', token: body.token, otp: body.otp }, request.ip);
    return startSession(deps, request, reply, userId, seller.id, body.cart_id);
  });

  app.post('/logout', { schema: { querystring: sellerQuery } }, async (request, reply) => {
    await endSession(deps, request.cookies?.[SESSION_COOKIE]);
    clearSessionCookie(request, reply);
    return { logout: { _data: [{ logged_out: true }], _count: 1 } };
  });
}

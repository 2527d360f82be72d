import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps';
import type { Seller } from '../db/types';
import { randomBytes } from 'node:crypto';
import { DomainError } from './errors';
import { SESSION_MARKER_COOKIE } from '../../src/domain/session';
import { SESSION_COOKIE, SESSION_DAYS, sessionAuth, type Auth } from '../services/auth/sessions';
import { previewAuth, staffSessionOf, type StaffSession } from '../services/staff';

export type { Auth } from '../services/auth/sessions';

/**
 * The logged-in user of a request, from the session cookie: {user, identity}, or null for a visitor.
 * With a seller, a session of another seller does not count. Results are cached on the request.
 */
export async function getAuth(
  deps: Deps,
  request: FastifyRequest,
  seller?: Pick<Seller, 'id'> | null,
  opts: { fresh?: boolean } = {},
): Promise<Auth | null> {
  const cache = request as FastifyRequest & { _auth?: Map<string, Auth | null> };
  cache._auth ??= new Map();
  const key = seller?.id ?? '*';
  if (opts.fresh || !cache._auth.has(key)) {
    // A member of staff looking through a preview is taken for the visitor the preview shows (issue 18).
    const found = await requestStaff(deps, request);
    const staff = found && (!seller || found.staff.seller_id === seller.id) ? found : null;
    const auth = staff?.preview
      ? await previewAuth(deps, staff.staff.seller_id, staff.preview)
      : await sessionAuth(deps, request.cookies?.[SESSION_COOKIE], seller?.id);
    cache._auth.set(key, auth);
  }
  return cache._auth.get(key)!;
}

export const notAuthenticated = () => new DomainError('not_authenticated', 'Please log in to continue.');

/** getAuth, or a 401 not_authenticated. */
export async function requireAuth(deps: Deps, request: FastifyRequest, seller?: Pick<Seller, 'id'> | null): Promise<Auth> {
  const auth = await getAuth(deps, request, seller);
  if (!auth) throw notAuthenticated();
  return auth;
}

/** httpOnly, SameSite=Lax; Secure when the request came over https (trustProxy reads X-Forwarded-Proto). */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: SESSION_DAYS * 86_400,
  });
  // Readable by the page, and holding no secret (a random tag per login): the storefront checks it each second
  // so a login or logout in another tab shows (spec section 4). It grants nothing; the session cookie does.
  reply.setCookie(SESSION_MARKER_COOKIE, randomBytes(8).toString('hex'), {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: SESSION_DAYS * 86_400,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
  reply.clearCookie(SESSION_MARKER_COOKIE, { path: '/', sameSite: 'lax', secure: request.protocol === 'https' });
}

/** The staff session of the request's staff cookie, read once per request (the read-only check and getAuth both ask). */
function requestStaff(deps: Deps, request: FastifyRequest): Promise<StaffSession | null> {
  const cache = request as FastifyRequest & { _staff?: Promise<StaffSession | null> };
  cache._staff ??= staffSessionOf(deps, request.cookies);
  return cache._staff;
}

/** True when the request comes from a member of staff looking through a preview: the API changes nothing for it. */
export async function inPreview(deps: Deps, request: FastifyRequest): Promise<boolean> {
  return !!(await requestStaff(deps, request))?.preview;
}

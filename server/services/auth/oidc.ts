import * as oidc from 'openid-client';
import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import type { SsoAuthError } from '../../../src/contract/account';
import { loginPathOf, type AuthConfig } from '../../../src/domain/auth-config';
import { oidcClientSecret } from '../../config';
import { DomainError } from '../errors';
import { accountForGuestPurchaser, claimGuestPurchases } from './guest-account';
import { isEmail, normalEmail, sameHash, sha256, storefrontUrl } from './tokens';
import { findUserByEmail } from './users';
import type { User } from './sessions';

/**
 * Single sign-on through OpenID Connect (issue 18), for the login methods `sso` and `hosted` with `auth.oidc` in the
 * seller config: the authorisation code flow with PKCE (S256), state and nonce, by `openid-client`.
 *
 * GET sso/start discovers the provider, keeps the PKCE verifier, the nonce, the return path and the cart in an
 * `sso_attempt` row keyed by the state's hash, gives the browser the state in an httpOnly cookie and sends it to
 * the provider. GET sso/callback takes that row (once), refuses a return whose state is not the cookie's, exchanges
 * the code (the ID token's signature, issuer, audience, expiry and nonce are checked by openid-client) and links the
 * identity to the seller's user of the same e-mail, which the provider must say is verified. No database
 * transaction is open while the provider is called.
 */

/** The browser's half of a login under way: its state, for GET sso/callback only. */
export const SSO_STATE_COOKIE = 'storefront_sso_state';
export const SSO_COOKIE_PATH = '/api/sso';
/** The return leg the provider must have registered: {PUBLIC_URL}/api/sso/callback. */
export const SSO_CALLBACK_PATH = '/api/sso/callback';
/** How long a login may stay at the provider. */
export const SSO_ATTEMPT_MINUTES = 10;
const DEFAULT_SCOPE = 'openid email profile';
/** Seconds a call to the provider may take (discovery, token exchange, its keys). */
const PROVIDER_TIMEOUT_S = 10;
/** A provider's metadata is read again after this long (keys rotate, endpoints move). */
const DISCOVERY_TTL_MS = 10 * 60_000;
/** Plain http only for a provider on this machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface OidcSettings {
  issuer: string;
  client_id: string;
  scope?: string;
}

type AuthWithOidc = AuthConfig & { oidc?: Partial<OidcSettings> | null };

/** The seller's OpenID Connect settings, when its login method goes through them (sso, hosted); else null. */
export function oidcSettings(seller: Pick<Seller, 'config'>): OidcSettings | null {
  const auth = (seller.config?.auth ?? {}) as AuthWithOidc;
  if (auth.method !== 'sso' && auth.method !== 'hosted') return null;
  const o = auth.oidc;
  if (!o || typeof o.issuer !== 'string' || typeof o.client_id !== 'string' || !o.issuer || !o.client_id) return null;
  return { issuer: o.issuer, client_id: o.client_id, scope: typeof o.scope === 'string' && o.scope.trim() ? o.scope : DEFAULT_SCOPE };
}

/** GET sso/start's refusals of a seller that does not log in this way (400, as before the return leg existed). */
export function requireOidcSettings(seller: Seller): OidcSettings {
  const method: unknown = seller.config?.auth?.method;
  if (method !== 'sso' && method !== 'hosted')
    throw new DomainError('unknown_auth_method', 'Unknown auth method', 'sso', { method: 'sso' });
  const settings = oidcSettings(seller);
  if (!settings) throw new DomainError('external_login_url_missing', 'External login URL missing', 'sso');
  return settings;
}

const discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

/** The provider's metadata and this client (secret from the environment, else a public client), cached a while. */
function providerConfig(deps: Deps, seller: Pick<Seller, 'slug'>, settings: OidcSettings): Promise<oidc.Configuration> {
  const secret = oidcClientSecret(deps.config, seller.slug);
  const key = sha256(JSON.stringify([settings.issuer, settings.client_id, secret ?? null]));
  const cached = discovered.get(key);
  if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
  const issuer = new URL(settings.issuer);
  const insecure = issuer.protocol === 'http:';
  if (insecure && !LOOPBACK.has(issuer.hostname)) return Promise.reject(new Error('an http issuer is allowed on this machine only'));
  const config = oidc.discovery(issuer, settings.client_id, undefined, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
    execute: insecure ? [oidc.allowInsecureRequests] : [],
    timeout: PROVIDER_TIMEOUT_S,
  });
  discovered.set(key, { at: Date.now(), config });
  // A provider that could not be reached is asked again next time.
  config.catch(() => discovered.get(key)?.config === config && discovered.delete(key));
  return config;
}

/**
 * POST logout of a session begun at the identity provider: the provider's logout address (OpenID Connect RP-initiated
 * logout) with the session's ID token as id_token_hint and the storefront's home as post_logout_redirect_uri, so the
 * provider's session ends too and the visitor comes back here. Null when the seller has no SSO any more, the provider
 * offers no end_session_endpoint or cannot be reached: the session here has ended all the same.
 */
export async function ssoLogoutUrl(deps: Deps, seller: Seller, idToken: string): Promise<string | null> {
  const settings = oidcSettings(seller);
  if (!settings) return null;
  const config = await providerConfig(deps, seller, settings);
  if (!config.serverMetadata().end_session_endpoint) return null;
  return oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: ssoLogoutReturn(deps, seller) }).toString();
}

/** Where the provider's logout sends the visitor back: the storefront's home (register it at the provider). */
export const ssoLogoutReturn = (deps: Deps, seller: Pick<Seller, 'slug'>) => storefrontUrl(deps, seller, '/', {}).replace(/\?$/, '');

/** Where a failed login lands: the storefront's login path with `auth_error` (a code, never English). */
export function ssoFailureUrl(deps: Deps, seller: Pick<Seller, 'slug' | 'config'>, code: SsoAuthError): string {
  return storefrontUrl(deps, seller, loginPathOf(seller.config?.auth as AuthConfig | undefined), { auth_error: code });
}

export type SsoStart = { ok: true; url: string; state: string } | { ok: false; url: string; reason: string };

/** GET sso/start: the provider's authorisation URL, with the attempt kept for the return; or where a failure lands. */
export async function startSso(
  deps: Deps,
  seller: Seller,
  settings: OidcSettings,
  o: { returnPath: string; cartId?: string },
): Promise<SsoStart> {
  let config: oidc.Configuration;
  try {
    config = await providerConfig(deps, seller, settings);
  } catch (err) {
    return { ok: false, url: ssoFailureUrl(deps, seller, 'sso_unavailable'), reason: (err as Error).message };
  }
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const now = deps.now();
  await deps.db
    .insertInto('sso_attempt')
    .values({
      state_hash: sha256(state),
      seller_id: seller.id,
      code_verifier: verifier,
      nonce,
      return_path: o.returnPath,
      cart_id: o.cartId ?? null,
      created_at: now,
      expires_at: new Date(now.getTime() + SSO_ATTEMPT_MINUTES * 60_000),
    })
    .execute();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${deps.config.publicUrl}${SSO_CALLBACK_PATH}`,
    response_type: 'code',
    scope: settings.scope ?? DEFAULT_SCOPE,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { ok: true, url: url.href, state };
}

export type SsoFinish =
  | { ok: true; url: string; userId: string; sellerId: string; cartId: string | null; idToken: string }
  | { ok: false; url: string; code: SsoAuthError; reason?: string };

/**
 * GET sso/callback: the user the provider vouched for and where to send the browser, or the failure. The attempt is
 * the one the browser's cookie names, taken (deleted) whatever happens next, so a return is honoured once; a
 * returned state that is not the cookie's is a login this browser did not start (login CSRF) and is refused.
 */
export async function finishSso(
  deps: Deps,
  o: { query: Record<string, unknown>; cookieState: unknown; fallbackSeller: () => Promise<Seller> },
): Promise<SsoFinish> {
  const cookieState = typeof o.cookieState === 'string' && o.cookieState.length <= 200 ? o.cookieState : '';
  const returnedState = typeof o.query.state === 'string' ? o.query.state : '';
  const attempt = cookieState
    ? await deps.db.deleteFrom('sso_attempt').where('state_hash', '=', sha256(cookieState)).returningAll().executeTakeFirst()
    : undefined;
  const seller = attempt
    ? await deps.db.selectFrom('seller').selectAll().where('id', '=', attempt.seller_id).executeTakeFirstOrThrow()
    : await o.fallbackSeller();
  const fail = (code: SsoAuthError, reason?: string): SsoFinish => ({ ok: false, url: ssoFailureUrl(deps, seller, code), code, reason });

  if (!attempt || new Date(attempt.expires_at) <= deps.now() || !sameHash(sha256(returnedState), sha256(cookieState)))
    return fail('sso_state_invalid');
  if (o.query.error !== undefined) return fail('sso_provider_error', String(o.query.error).slice(0, 100));
  const settings = oidcSettings(seller);
  if (!settings) return fail('sso_not_configured');
  let config: oidc.Configuration;
  try {
    config = await providerConfig(deps, seller, settings);
  } catch (err) {
    return fail('sso_unavailable', (err as Error).message);
  }

  let claims: Record<string, unknown>;
  let rawIdToken: string;
  try {
    // The address the provider sent the browser to, as registered (not as this request's Host says).
    const current = new URL(`${deps.config.publicUrl}${SSO_CALLBACK_PATH}`);
    for (const [k, v] of Object.entries(o.query)) if (typeof v === 'string') current.searchParams.set(k, v);
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: attempt.code_verifier,
      expectedState: cookieState,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken || !tokens.id_token) return fail('sso_token_failed', 'no ID token');
    rawIdToken = tokens.id_token;
    claims = idToken;
    // A code-flow provider may keep the e-mail claims for userinfo (the subject must be the ID token's).
    if (claims.email === undefined) claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)), ...idToken };
  } catch (err) {
    return fail('sso_token_failed', (err as Error).message);
  }
  const email = typeof claims.email === 'string' ? normalEmail(claims.email) : '';
  // The e-mail links the identity to an account: only an address the provider has verified may do that.
  if (claims.email_verified !== true || !isEmail(email)) return fail('sso_email_unverified');
  const user = await userForVerifiedEmail(deps, seller.id, email, {
    first_name: typeof claims.given_name === 'string' ? claims.given_name.slice(0, 200) : null,
    last_name: typeof claims.family_name === 'string' ? claims.family_name.slice(0, 200) : null,
  });
  return { ok: true, url: attempt.return_path, userId: user.id, sellerId: seller.id, cartId: attempt.cart_id, idToken: rawIdToken };
}

/**
 * The seller's user of a verified address: the existing one, else the account of the address's guest purchases,
 * else a new user (no password) with the names the provider gave. The address is proven, so what it bought as a
 * guest joins the account, as after a password-setting link (guest-account.ts).
 */
async function userForVerifiedEmail(
  deps: Deps,
  sellerId: string,
  email: string,
  names: { first_name: string | null; last_name: string | null },
): Promise<User> {
  const existing = (await findUserByEmail(deps, sellerId, email)) ?? (await accountForGuestPurchaser(deps, sellerId, email));
  return deps.db.transaction().execute(async (trx) => {
    let user = existing;
    if (!user) {
      const identity = await trx
        .insertInto('identity')
        .values({ seller_id: sellerId, is_public: false, ...names, email, additional_info: '{}', meta: JSON.stringify({ sso: true }) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('app_user')
        .values({ seller_id: sellerId, identity_id: identity.id, email, password_hash: null })
        .onConflict((oc) => oc.expression(sql`seller_id, lower(email)`).doNothing())
        .execute();
      user = (await findUserByEmail({ ...deps, db: trx }, sellerId, email))!;
      // A login of the same address at the same moment made the user first: this identity is not needed.
      if (user.identity_id !== identity.id) await trx.deleteFrom('identity').where('id', '=', identity.id).execute();
    }
    await claimGuestPurchases(trx, user);
    return user;
  });
}

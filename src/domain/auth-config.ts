/** Login configuration every page needs (mode, login path, one-time link, external targets); the login form's
 *  own rules are in login.ts, which loads with the form. No I/O. */

export type LoginMethod =
  | 'none'
  | 'password'
  | 'otp'
  | 'otp_or_password'
  | 'scan_code'
  | 'scan_code_password'
  | 'scan_code_last_name'
  | 'auth0_ecomm'
  | 'sf_ecomm'
  | 'hosted'
  | 'sso';

export const LOGIN_METHODS: readonly LoginMethod[] = [
  'none',
  'password',
  'otp',
  'otp_or_password',
  'scan_code',
  'scan_code_password',
  'scan_code_last_name',
  'auth0_ecomm',
  'sf_ecomm',
  'hosted',
  'sso',
];
export const EXTERNAL_METHODS: readonly LoginMethod[] = ['auth0_ecomm', 'sf_ecomm', 'hosted', 'sso'];

/** Spec section 9: one-time codes have 6 characters. */
export const OTP_LENGTH = 6;

export function parseMethod(value: unknown): LoginMethod | null {
  return typeof value === 'string' && (LOGIN_METHODS as readonly string[]).includes(value) ? (value as LoginMethod) : null;
}

export function isExternalMethod(method: LoginMethod): boolean {
  return EXTERNAL_METHODS.includes(method);
}

/** Spec section 5: one-time code, digits or letters; pasted text is stripped of everything else. */
export function normalizeOtp(raw: string): string {
  // A pasted sentence ('Your passcode is 123456.') keeps its 6-digit code.
  const digits = raw.match(new RegExp(`(?<![0-9])[0-9]{${OTP_LENGTH}}(?![0-9])`));
  if (digits && raw.replace(/[\s-]/g, '').length > OTP_LENGTH) return digits[0];
  return raw.replace(/[^0-9A-Za-z]/g, '').slice(0, OTP_LENGTH);
}

/** The one-time link lands on the login path with ?otp=...&token=...: both, or nothing. */
export function readOtpLink(search: string): { otp: string; token: string } | null {
  const params = new URLSearchParams(search);
  const otp = params.get('otp');
  const token = params.get('token');
  if (!otp || !token) return null;
  return { otp: normalizeOtp(otp), token };
}

/** The address without the one-time link's parameters (spec section 2: read, then removed). */
export function withoutOtpParams(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('otp');
  params.delete('token');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** seller-config.schema.json `auth`. */
export interface AuthConfig {
  method?: string;
  external_login_url?: string | null;
  external_logout_url?: string | null;
  show_forgot_password?: boolean;
  login_path?: string;
  invalid_credentials_text?: string | null;
  /** sso and hosted: the OpenID Connect provider the server logs in through (GET sso/start); no secret here. */
  oidc?: { issuer?: string; client_id?: string; scope?: string } | null;
}

/** The seller config's auth section (storefront.auth). */
export function authConfigOf(storefront: Record<string, unknown>): AuthConfig {
  return (storefront.auth ?? {}) as AuthConfig;
}

export const DEFAULT_LOGIN_PATH = '/login/callback';

export function loginPathOf(auth: AuthConfig | undefined): string {
  const path = auth?.login_path?.trim() || DEFAULT_LOGIN_PATH;
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') : withSlash;
}

export type ExternalTarget = { url: string } | { errorKey: string };

/** sso and hosted log in through the server's OpenID Connect client when the seller names a provider. */
export function usesOidc(method: LoginMethod, auth: AuthConfig | undefined): boolean {
  return (method === 'sso' || method === 'hosted') && !!auth?.oidc?.issuer?.trim() && !!auth.oidc.client_id?.trim();
}

/**
 * Where an external mode sends the shopper (spec sections 2, 7, 8): single sign-on, and a hosted identity provider
 * named by `auth.oidc`, go to the API's /sso/start with redirect and cart_id (and come back logged in, or to the
 * login path with auth_error); auth0_ecomm, sf_ecomm and a hosted provider without `oidc` go to the configured
 * login URL; 'External login URL missing' without either.
 */
export function externalLoginTarget(
  method: LoginMethod,
  auth: AuthConfig | undefined,
  opts: { apiBaseUrl: string; returnTo: string; cartId?: string | null; seller?: string },
): ExternalTarget {
  const params = new URLSearchParams({ redirect: opts.returnTo });
  if (opts.cartId) params.set('cart_id', opts.cartId);
  if (!isExternalMethod(method)) return { errorKey: 'login.unknownMethod' };
  if (usesOidc(method, auth)) {
    if (opts.seller) params.set('_seller', opts.seller);
    return { url: `${opts.apiBaseUrl.replace(/\/+$/, '')}/sso/start?${params}` };
  }
  const base = auth?.external_login_url?.trim();
  if (!base || method === 'sso') return { errorKey: 'login.externalUrlMissing' };
  return { url: `${base}${base.includes('?') ? '&' : '?'}${params}` };
}

/** Logging out of an external mode also ends the session there ('External logout URL missing' without one). */
export function externalLogoutTarget(method: LoginMethod, auth: AuthConfig | undefined): ExternalTarget | null {
  if (!isExternalMethod(method) || method === 'sso') return null;
  const url = auth?.external_logout_url?.trim();
  return url ? { url } : { errorKey: 'login.externalLogoutUrlMissing' };
}

import { authConfigOf, parseMethod, type LoginMethod } from './auth-config';

/**
 * Whether visitors log in with a password here (password, otp_or_password): only then does an account with a password
 * (issue 13: sign-up, 'create an account' at checkout, a guest purchaser setting one) give them a way in; one-time-code,
 * member-id and external logins never ask for it. Not in auth-config.ts, which is in the first page's bundle: only the
 * lazily loaded login form, sign-up, home, checkout and completion screens ask.
 */
export function acceptsPasswords(method: LoginMethod | null): boolean {
  return method === 'password' || method === 'otp_or_password';
}

/** acceptsPasswords for the seller's configured login method. */
export function passwordLogin(storefront: Record<string, unknown>): boolean {
  return acceptsPasswords(parseMethod(authConfigOf(storefront).method ?? 'password'));
}

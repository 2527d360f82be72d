import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import { DomainError } from '../errors';
import { hashPassword, needsRehash, verifyPassword } from '../password';
import { verifyOtp } from './otp';
import { hit, refund } from './rate-limit';
import { sendPasswordResetFor } from './reset';
import { findUserByEmail, userForIdentity } from './users';
import { isEmail, normalEmail } from './tokens';
import { oidcSettings } from './oidc';

export interface LoginBody {
  method?: string;
  username?: string;
  email?: string;
  password?: string;
  scan_code?: string;
  zip_code?: string;
  last_name?: string;
  otp?: string;
  token?: string;
  cart_id?: string;
}
type Method = 'password' | 'otp' | 'scan_code' | 'scan_code_password' | 'scan_code_last_name';

const EXTERNAL = ['auth0_ecomm', 'sf_ecomm', 'hosted', 'sso'];
/** What each configured mode lets POST login do. */
const ALLOWED: Record<string, Method[]> = {
  password: ['password'],
  otp: ['otp'],
  otp_or_password: ['otp', 'password'],
  scan_code: ['scan_code'],
  scan_code_password: ['scan_code_password'],
  scan_code_last_name: ['scan_code_last_name'],
};
/** Spec section 8: the invalid-credentials text per mode (a seller may replace it in config). */
export const INVALID_TEXT: Record<Method, string> = {
  password: 'The email address or password is not correct. Please try again.',
  otp: 'The passcode you entered is invalid.',
  scan_code: 'Member details not found. Please check your member ID and ZIP code.',
  scan_code_password: 'Member details not found. Please check your email address and member ID.',
  scan_code_last_name: 'Member details not found. Please check your member ID and last name.',
};
export const INCORRECT_PASSWORD = 'That is not the correct password. Please try again.';
export const GUEST_ACCOUNT = 'Oops! You have not set a password yet. Please check your email inbox for a link to set your password.';

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const missing = (field: string) =>
  new DomainError('validation_failed', `Please enter your ${field.replace('_', ' ')}.`, 'login', { field });

/** Refuses logins the seller's configured mode does not allow; returns the method this request uses. */
export function loginMethod(seller: Seller, body: LoginBody): Method {
  const auth = (seller.config?.auth ?? {}) as { method?: string; external_login_url?: string | null };
  const configured = auth.method ?? 'password';
  if (configured === 'none') throw new DomainError('login_disabled', 'Login is disabled', 'login');
  if (EXTERNAL.includes(configured)) {
    // sso and hosted with an OpenID Connect provider log in through GET sso/start (services/auth/oidc.ts).
    const loginUrl = oidcSettings(seller) ? `/api/sso/start?_seller=${encodeURIComponent(seller.slug)}` : auth.external_login_url;
    if (!loginUrl) throw new DomainError('external_login_url_missing', 'External login URL missing', 'login', { method: configured });
    throw new DomainError('external_login_required', 'Please log in through the external login page.', 'login', {
      method: configured,
      login_url: loginUrl,
    });
  }
  const allowed = ALLOWED[configured] ?? [];
  const asked = body.method ?? (body.otp || body.token ? 'otp' : allowed.includes('password') ? 'password' : allowed[0]);
  if (!allowed.includes(asked as Method)) {
    throw new DomainError('unknown_auth_method', 'Unknown auth method', 'login', { method: asked ?? null, allowed });
  }
  return asked as Method;
}

// Verifying against a throwaway hash when the e-mail is unknown keeps the answer time the same.
let decoy: Promise<string> | null = null;
const decoyHash = () => (decoy ??= hashPassword('decoy password that never matches'));

/**
 * Brute-force defence without lock-out (OWASP ASVS 6.3): wrong guesses are limited per account and address, and more
 * slowly per account from anywhere, so an attacker is stopped while the owner, from their own address, still logs in.
 */
export async function takeLoginTries(deps: Deps, account: string, ip: string) {
  await hit(deps, 'login_account_ip', `${account}:${ip}`);
  await hit(deps, 'login_account', account);
  return {
    giveBack: async () => {
      await refund(deps, 'login_account_ip', `${account}:${ip}`);
      await refund(deps, 'login_account', account);
    },
  };
}

/** POST login: the id of the user these credentials name, or a DomainError of spec section 8. */
export async function login(deps: Deps, seller: Seller, body: LoginBody, ip: string): Promise<string> {
  const method = loginMethod(seller, body);
  const invalid = () =>
    new DomainError(
      'invalid_credentials',
      (seller.config?.auth?.invalid_credentials_text as string | undefined) || INVALID_TEXT[method],
      'login',
      { method },
    );
  await hit(deps, 'login_ip', `${seller.id}:${ip}`);

  if (method === 'otp') {
    if (!text(body.token)) throw missing('token');
    if (!text(body.otp)) throw missing('otp');
    return verifyOtp(deps, seller, text(body.token), text(body.otp), ip);
  }

  if (method === 'password') {
    const email = normalEmail(text(body.username ?? body.email));
    if (!email) throw missing('email');
    if (!isEmail(email)) throw new DomainError('validate_not_email', 'Email address is not valid.', 'login', { field: 'username' });
    if (!body.password) throw missing('password');
    // A guess takes a try from this account at this address and from the account overall before it is checked
    // (so concurrent guesses cannot exceed them); the right password gives both back.
    const tries = await takeLoginTries(deps, `${seller.id}:${email}`, ip);
    const user = await findUserByEmail(deps, seller.id, email);
    if (!user) {
      await verifyPassword(body.password, await decoyHash());
      throw invalid();
    }
    if (!user.password_hash) {
      await sendPasswordResetFor(deps, seller, user);
      throw new DomainError('guest_account', GUEST_ACCOUNT, 'login');
    }
    if (!(await verifyPassword(body.password, user.password_hash)))
      throw new DomainError('incorrect_password', INCORRECT_PASSWORD, 'login');
    await tries.giveBack();
    if (needsRehash(user.password_hash)) {
      await deps.db
        .updateTable('app_user')
        .set({ password_hash: await hashPassword(body.password) })
        .where('id', '=', user.id)
        .execute();
    }
    return user.id;
  }

  // Member-id modes: the membership's scan code plus one more fact about its holder.
  const scanCode = text(body.scan_code);
  if (!scanCode) throw missing('scan_code');
  const tries = await takeLoginTries(deps, `${seller.id}:scan:${scanCode.toUpperCase()}`, ip);
  const row = await deps.db
    .selectFrom('membership')
    .innerJoin('identity', 'identity.id', 'membership.identity_id')
    .select(['membership.identity_id', 'membership.zip_code as member_zip', 'identity.zip_code', 'identity.email', 'identity.last_name'])
    .where('membership.seller_id', '=', seller.id)
    .where(sql<string>`upper(membership.scan_code)`, '=', scanCode.toUpperCase())
    .orderBy('membership.valid_to', 'desc')
    .executeTakeFirst();
  let ok: boolean;
  if (method === 'scan_code') {
    const zip = text(body.zip_code);
    if (!zip) throw missing('zip_code');
    ok = !!row && zipMatches(row.member_zip ?? row.zip_code, zip);
  } else if (method === 'scan_code_password') {
    const email = normalEmail(text(body.username ?? body.email));
    if (!email) throw missing('email');
    const user = row?.identity_id
      ? await deps.db.selectFrom('app_user').select('email').where('identity_id', '=', row.identity_id).executeTakeFirst()
      : undefined;
    ok = !!row && [row.email, user?.email].some((e) => !!e && normalEmail(e) === email);
  } else {
    const last = text(body.last_name).toLowerCase();
    if (!last) throw missing('last_name');
    ok = !!row && text(row.last_name).toLowerCase() === last;
  }
  if (!ok || !row?.identity_id) throw invalid();
  await tries.giveBack();
  return (await userForIdentity(deps, seller.id, row.identity_id)).id;
}

/** ZIP codes compare without case, spaces or hyphens; a US ZIP+4 on file matches its 5-digit form. */
export function zipMatches(onFile: string | null, given: string): boolean {
  const norm = (z: string) => z.toUpperCase().replace(/[\s-]/g, '');
  if (!onFile || norm(given).length < 4) return false;
  const a = norm(onFile);
  const b = norm(given);
  return a === b || (/^\d{9}$/.test(a) && /^\d{5}$/.test(b) && a.startsWith(b));
}

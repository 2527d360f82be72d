import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';

/** Secrets handed to browsers or mailboxes: 256 random bits, hex. Only their sha256 is stored. */
export const newSecret = () => randomBytes(32).toString('hex');
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const isSecret = (value: unknown): value is string => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);

/** A one-time passcode of OTP_LENGTH digits from the CSPRNG (spec section 9: OTP length 6). */
export const OTP_LENGTH = 6;
export const newOtp = () => Array.from({ length: OTP_LENGTH }, () => String(randomInt(10))).join('');

/**
 * A passcode is stored keyed by its token, so a leaked table row alone does not give the code away
 * (10^6 codes are easy to try against a bare hash, not against a hash salted with a 256-bit secret).
 */
export const otpHash = (token: string, code: string) => sha256(`${token}:${code.toUpperCase()}`);

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);
export const normalEmail = (value: string) => value.trim().toLowerCase();

/** Users whose e-mail starts with this marker have no real address yet (spec section 3). */
export const NO_EMAIL_MARKER = 'noemail+';
export const hasRealEmail = (email: string | null | undefined) => !!email && !email.toLowerCase().startsWith(NO_EMAIL_MARKER);

/**
 * Absolute links in mails. The base comes from configuration, never from the request's Host header: a
 * forged Host would otherwise send a victim's passcode or reset token to the forger's site.
 */
export function storefrontUrl(deps: Deps, seller: Pick<Seller, 'slug'>, path: string, query: Record<string, string>): string {
  const base = deps.config.publicUrl.replace(/\/+$/, '');
  const prefix = seller.slug === deps.config.defaultSeller ? '' : `/${encodeURIComponent(seller.slug)}`;
  const p = path.startsWith('/') ? path : `/${path}`;
  return `${base}${prefix}${p === '/' ? '/' : p.replace(/\/+$/, '')}?${new URLSearchParams(query).toString()}`;
}

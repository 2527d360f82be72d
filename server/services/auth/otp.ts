import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import type { OtpRequestAnswer } from '../../../src/contract/account';
import { DomainError } from '../errors';
import { hit } from './rate-limit';
import { OTP_MINUTES, sendNoAccountMail, sendOtpMail } from './mails';
import { findUserByEmail } from './users';
import { isEmail, newOtp, newSecret, normalEmail, otpHash, sameHash, sha256 } from './tokens';

export const OTP_MAX_ATTEMPTS = 3;

/**
 * POST login/request_otp: a token for the browser (and its lifetime in seconds) and, by mail, the passcode and a one-time link.
 * The answer is the same whether or not the address has an account; without one the token can never
 * verify (it has no code) and the mailbox is told so instead.
 */
export async function requestOtp(deps: Deps, seller: Seller, rawEmail: string, ip: string): Promise<OtpRequestAnswer> {
  const email = normalEmail(rawEmail);
  if (!isEmail(email)) throw new DomainError('validate_not_email', 'Email address is not valid.', 'request_otp', { field: 'email' });
  await hit(deps, 'otp_request_ip', `${seller.id}:${ip}`);
  await hit(deps, 'otp_request_email', `${seller.id}:${email}`);
  const user = await findUserByEmail(deps, seller.id, email);
  const token = newSecret();
  const code = user ? newOtp() : null;
  const now = deps.now();
  await deps.db
    .insertInto('login_token')
    .values({
      seller_id: seller.id,
      kind: 'otp',
      email,
      token_hash: sha256(token),
      code_hash: code ? otpHash(token, code) : null,
      created_at: now,
      expires_at: new Date(now.getTime() + OTP_MINUTES * 60_000),
    })
    .execute();
  if (user && code) await sendOtpMail(deps, seller, user.email, code, token);
  else await sendNoAccountMail(deps, seller, email);
  return { token, expires_in: OTP_MINUTES * 60 };
}

const dead = () => new DomainError('not_authorized', 'This passcode can no longer be used. Please request a new one.', 'otp');
const expired = () => new DomainError('otp_token_expired', 'This passcode has expired. Please request a new one.', 'otp');

/**
 * OTP verify: each try is counted by one conditional update (attempts < 3), so parallel guesses cannot
 * exceed 3; the 4th try fails even with the right code. A right code is consumed once (used_at).
 * Returns the user's id.
 */
export async function verifyOtp(deps: Deps, seller: Seller, token: string, rawCode: string, ip: string): Promise<string> {
  await hit(deps, 'otp_verify_ip', `${seller.id}:${ip}`);
  const now = deps.now();
  const tokenHash = sha256(token);
  const row = await deps.db
    .updateTable('login_token')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', 'otp')
    .where('seller_id', '=', seller.id)
    .where('used_at', 'is', null)
    .where('attempts', '<', OTP_MAX_ATTEMPTS)
    .where('expires_at', '>', now)
    .returning(['id', 'email', 'code_hash', 'attempts'])
    .executeTakeFirst();
  if (!row) {
    const known = await deps.db
      .selectFrom('login_token')
      .select(['expires_at', 'used_at', 'attempts'])
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', 'otp')
      .where('seller_id', '=', seller.id)
      .executeTakeFirst();
    if (known && !known.used_at && known.attempts < OTP_MAX_ATTEMPTS && new Date(known.expires_at) <= now) throw expired();
    throw dead();
  }
  const code = rawCode.replace(/\s+/g, '');
  if (!row.code_hash || !sameHash(row.code_hash, otpHash(token, code))) {
    const remaining = OTP_MAX_ATTEMPTS - row.attempts;
    throw new DomainError('otp_incorrect', 'The passcode you entered is invalid.', 'otp', { remaining_attempts: remaining });
  }
  const used = await deps.db
    .updateTable('login_token')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!used) throw dead();
  const user = await findUserByEmail(deps, seller.id, row.email);
  if (!user) throw dead();
  return user.id;
}

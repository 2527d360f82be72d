import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import { table } from '../../../src/contract/tables';
import type { PasswordResetRequestAnswer, ResetIdentityAnswer } from '../../../src/contract/account';
import { DomainError } from '../errors';
import { hashPassword } from '../password';
import { RESET_MINUTES, sendResetMail } from './mails';
import { passwordProblems } from '../../../src/domain/password';
import { hit, tryHit } from './rate-limit';
import type { User } from './sessions';
import { accountForGuestPurchaser, claimGuestPurchases } from './guest-account';
import { findUserByEmail } from './users';
import { hasRealEmail, isEmail, newSecret, normalEmail, sha256 } from './tokens';

/** Spec section 8: both reset-link errors read 'This reset link is not valid. It may have expired.' */
export const RESET_LINK_INVALID = 'This reset link is not valid. It may have expired.';

/** A reset token by mail for this user (rate-limited per address; over the limit nothing is sent). */
export async function sendPasswordResetFor(deps: Deps, seller: Seller, user: User): Promise<void> {
  if (!hasRealEmail(user.email)) return;
  if (!(await tryHit(deps, 'reset_request_email', `${seller.id}:${normalEmail(user.email)}`))) return;
  const token = newSecret();
  const now = deps.now();
  await deps.db
    .insertInto('login_token')
    .values({
      seller_id: seller.id,
      kind: 'password_reset',
      email: normalEmail(user.email),
      token_hash: sha256(token),
      created_at: now,
      expires_at: new Date(now.getTime() + RESET_MINUTES * 60_000),
    })
    .execute();
  await sendResetMail(deps, seller, user.email, token);
}

/** The answer of validate and reset: the e-mail of the account. */
const identityAnswer = (email: string): ResetIdentityAnswer => ({ identity: table([{ email }]) });

/** POST password_reset/request: the same answer for every address; a mail only when an account exists. */
export async function requestPasswordReset(deps: Deps, seller: Seller, rawEmail: string, ip: string): Promise<PasswordResetRequestAnswer> {
  await mailPasswordReset(deps, seller, rawEmail, ip);
  // The same answer whether or not the address has an account.
  return { password_reset: table([{ requested: true }]) };
}

async function mailPasswordReset(deps: Deps, seller: Seller, rawEmail: string, ip: string): Promise<void> {
  const email = normalEmail(rawEmail);
  if (!isEmail(email)) throw new DomainError('validate_not_email', 'Email address is not valid.', 'password_reset', { field: 'email' });
  await hit(deps, 'reset_request_ip', `${seller.id}:${ip}`);
  // Counted for unknown addresses too, so a 429 says nothing about whether an account exists.
  await hit(deps, 'reset_request_email', `${seller.id}:${email}`);
  // A guest purchaser without an account gets one here, without a password until the link sets it.
  const user = (await findUserByEmail(deps, seller.id, email)) ?? (await accountForGuestPurchaser(deps, seller.id, email));
  if (!user || !hasRealEmail(user.email)) return;
  const token = newSecret();
  const now = deps.now();
  await deps.db
    .insertInto('login_token')
    .values({
      seller_id: seller.id,
      kind: 'password_reset',
      email,
      token_hash: sha256(token),
      created_at: now,
      expires_at: new Date(now.getTime() + RESET_MINUTES * 60_000),
    })
    .execute();
  await sendResetMail(deps, seller, user.email, token);
}

/** A live reset token: 404 not_found when unknown, 400 validate_failed when used or expired. */
async function liveToken(deps: Deps, seller: Seller, token: string) {
  const row = await deps.db
    .selectFrom('login_token')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .where('kind', '=', 'password_reset')
    .where('seller_id', '=', seller.id)
    .executeTakeFirst();
  if (!row) throw new DomainError('not_found', RESET_LINK_INVALID, 'password_reset');
  if (row.used_at || new Date(row.expires_at) <= deps.now()) throw new DomainError('validate_failed', RESET_LINK_INVALID, 'password_reset');
  return row;
}

/** POST password_reset/validate: the identity e-mail the token belongs to. */
export async function validateResetToken(deps: Deps, seller: Seller, token: string): Promise<ResetIdentityAnswer> {
  const row = await liveToken(deps, seller, token);
  const user = await findUserByEmail(deps, seller.id, row.email);
  if (!user) throw new DomainError('not_found', RESET_LINK_INVALID, 'password_reset');
  return identityAnswer(user.email);
}

/**
 * POST password_reset/reset: checks the password rules, hashes (slow, outside the transaction), then
 * consumes the token with one conditional update in the same transaction that stores the hash, ends the
 * user's sessions and voids the user's other reset tokens. Answers the e-mail.
 */
export async function resetPassword(deps: Deps, seller: Seller, token: string, password: string): Promise<ResetIdentityAnswer> {
  const problems = passwordProblems(password);
  if (problems.length) {
    throw new DomainError('validation_failed', 'Invalid password', 'password_reset', { field: 'password', rules: problems });
  }
  await liveToken(deps, seller, token);
  const hash = await hashPassword(password);
  const now = deps.now();
  const user = await deps.db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('login_token')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(token))
      .where('kind', '=', 'password_reset')
      .where('seller_id', '=', seller.id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('email')
      .executeTakeFirst();
    if (!used) throw new DomainError('validate_failed', RESET_LINK_INVALID, 'password_reset');
    const target = await findUserByEmail({ ...deps, db: trx }, seller.id, used.email);
    if (!target) throw new DomainError('not_found', RESET_LINK_INVALID, 'password_reset');
    await trx.updateTable('app_user').set({ password_hash: hash }).where('id', '=', target.id).execute();
    // The link proved the address: what it bought as a guest joins the account.
    await claimGuestPurchases(trx, target);
    await trx
      .updateTable('login_token')
      .set({ used_at: now })
      .where('seller_id', '=', seller.id)
      .where('kind', '=', 'password_reset')
      .where('email', '=', used.email)
      .where('used_at', 'is', null)
      .execute();
    // Every session of the user ends with the old password (a thief's session with it).
    await trx.deleteFrom('auth_session').where('user_id', '=', target.id).execute();
    return target;
  });
  return identityAnswer(user.email);
}

import { sql } from 'kysely';
import type { Deps } from '../../deps';
import { table } from '../../../src/contract/tables';
import type { IdentityRow, ProfileBody, UserAnswer, UserRow } from '../../../src/contract/account';
import { DomainError } from '../errors';
import { hashPassword } from '../password';
import { passwordProblems } from '../../../src/domain/password';
import { hasRealEmail, normalEmail } from './tokens';
import type { Auth, Identity, User } from './sessions';

export type { ProfileBody };

/** The wire rows of GET my/user: the user, and its identity (meta only when asked). */
export function userWire(user: User): UserRow {
  return {
    id: user.id,
    seller_id: user.seller_id,
    identity_id: user.identity_id,
    email: hasRealEmail(user.email) ? user.email : null,
    has_email: hasRealEmail(user.email),
    has_password: !!user.password_hash,
  };
}
export function identityWire(identity: Identity, withMeta: boolean): IdentityRow {
  const { owner_token_hash: _hidden, ...meta } = identity.meta ?? {};
  return {
    id: identity.id,
    first_name: identity.first_name,
    last_name: identity.last_name,
    email: hasRealEmail(identity.email) ? identity.email : null,
    phone: identity.phone,
    address: identity.address,
    address_more: identity.address_more,
    city: identity.city,
    state: identity.state,
    region: identity.region,
    country: identity.country,
    zip_code: identity.zip_code,
    additional_info: identity.additional_info,
    ...(withMeta ? { meta } : {}),
  };
}

/** GET my/user (and every login): the user and its identity. */
export function userAnswer(auth: Auth, withMeta: boolean): UserAnswer {
  return { user: table([userWire(auth.user)]), identity: table([identityWire(auth.identity, withMeta)]) };
}

const invalid = (field: string, description: string, extra: Record<string, unknown> = {}) =>
  new DomainError('validation_failed', description, 'user', { field, ...extra });
const ZIP = /^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/;
/** Spec section 5, set-email form: the domain must contain a dot. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Spec section 5 identity rules for the fields present in the body; a null clears an optional field. */
function profileFields(body: ProfileBody): Partial<Identity> {
  const out: Record<string, unknown> = {};
  for (const name of ['first_name', 'last_name'] as const) {
    if (body[name] === undefined) continue;
    const v = String(body[name] ?? '').trim();
    if (!v) throw invalid(name, 'This field is required.');
    if (v.length > 50) throw invalid(name, 'Must be at most 50 characters.');
    out[name] = v;
  }
  const optional = {
    phone: 50,
    address: 1000,
    address_more: 1000,
    city: 1000,
    state: 1000,
    region: 1000,
    country: 1000,
    zip_code: 10,
  } as const;
  for (const [name, max] of Object.entries(optional) as Array<[keyof typeof optional, number]>) {
    if (body[name] === undefined) continue;
    const v = String(body[name] ?? '').trim();
    if (v.length > max) throw invalid(name, `Must be at most ${max} characters.`);
    if (name === 'zip_code' && v && (v.length < 4 || !ZIP.test(v))) throw invalid(name, 'Zip or post code is not valid.');
    out[name] = v || null;
  }
  if (body.additional_info !== undefined) {
    for (const [k, v] of Object.entries(body.additional_info)) {
      if (typeof v === 'string' && v.length > 1000) throw invalid(`additional_info.${k}`, 'Must be at most 1000 characters.');
    }
    out.additional_info = JSON.stringify(body.additional_info);
  }
  return out as Partial<Identity>;
}

/** PATCH my/user/{id}: the profile fields; the e-mail is changed only by PUT my/user. */
export async function patchProfile(deps: Deps, auth: Auth, id: string, body: ProfileBody): Promise<void> {
  if (id !== auth.user.id && id !== auth.identity.id)
    throw new DomainError('not_found', 'Resource user not found.', undefined, { resource: 'user', id });
  if (body.email !== undefined && normalEmail(body.email) !== normalEmail(auth.user.email)) {
    throw invalid('email', 'The email address can not be changed here.', { reason: 'email_fixed' });
  }
  const fields = profileFields(body);
  if (Object.keys(fields).length)
    await deps.db
      .updateTable('identity')
      .set(fields as never)
      .where('id', '=', auth.identity.id)
      .execute();
}

/**
 * PUT my/user: the logged-in purchaser's details and e-mail (set-email-address screen, checkout).
 * An address used by another account is a 409 naming that account's identity (spec section 7).
 */
export async function putProfile(deps: Deps, auth: Auth, body: ProfileBody): Promise<void> {
  const fields = profileFields(body);
  let email: string | undefined;
  if (body.email !== undefined) {
    email = String(body.email).trim();
    if (!email || email.length > 254 || !EMAIL.test(email))
      throw invalid('email', 'Email address is not valid.', { reason: 'email_invalid' });
    if (body.email_confirm !== undefined && normalEmail(body.email_confirm) !== normalEmail(email))
      throw invalid('email_confirm', 'Email addresses must match.');
    // Only an account without an address may set one here: a stolen session must not be able to move the
    // account to the thief's mailbox (and from there take it over with a password reset).
    if (hasRealEmail(auth.user.email) && normalEmail(email) !== normalEmail(auth.user.email)) {
      throw invalid('email', 'The email address can not be changed here.', { reason: 'email_fixed' });
    }
  }
  let passwordHash: string | undefined;
  if (body.password !== undefined) {
    if (auth.user.password_hash) throw invalid('password', 'Please use the forgot-password link to change your password.');
    const problems = passwordProblems(body.password);
    if (problems.length) throw invalid('password', 'Invalid password', { rules: problems });
    passwordHash = await hashPassword(body.password);
  }
  const taken = async () => {
    if (!email) return;
    const other = await deps.db
      .selectFrom('app_user')
      .select(['identity_id'])
      .where('seller_id', '=', auth.user.seller_id)
      .where(sql<string>`lower(email)`, '=', normalEmail(email))
      .where('id', '<>', auth.user.id)
      .executeTakeFirst();
    if (other) {
      throw new DomainError('email_in_use', `Another user account is using ${email}. Please contact us to merge the accounts.`, 'user', {
        field: 'email',
        identity_id: other.identity_id,
      });
    }
  };
  await taken();
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (email || passwordHash) {
        await trx
          .updateTable('app_user')
          .set({ ...(email ? { email } : {}), ...(passwordHash ? { password_hash: passwordHash } : {}) })
          .where('id', '=', auth.user.id)
          .execute();
      }
      const identity = { ...fields, ...(email ? { email } : {}) };
      if (Object.keys(identity).length)
        await trx
          .updateTable('identity')
          .set(identity as never)
          .where('id', '=', auth.identity.id)
          .execute();
    });
  } catch (err) {
    // Two accounts claiming one address at once: the unique index decides, the loser gets the 409.
    if (/unique|duplicate/i.test(String((err as Error).message))) await taken();
    throw err;
  }
}

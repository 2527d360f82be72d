import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import type { Caller } from '../cart/access';
import { DomainError } from '../errors';
import { hit } from '../auth/rate-limit';
import { addressProblems } from '../../../src/domain/address';
import { sql } from 'kysely';
import { passwordProblems } from '../../../src/domain/password';
import { findUserByEmail } from '../auth/users';
import { hashPassword, verifyPassword } from '../password';
import { sendPasswordResetFor } from '../auth/reset';
import { IDENTITY_PROOF_SECONDS, secretOf, signIdentityProof } from '../manage-link';
import { GUEST_ACCOUNT, INCORRECT_PASSWORD, takeLoginTries } from '../auth/login';
import type { User } from '../auth/sessions';

const invalid = (field: string, description: string) => new DomainError('validation_failed', description, 'checkout', { field });

/** POST user: the purchaser's details for a guest checkout (spec section 5 rules). */
export interface GuestIdentityBody {
  first_name: string;
  last_name: string;
  email: string;
  email_confirm?: string;
  phone?: string | null;
  zip_code?: string | null;
  zip?: string | null;
  address?: string | null;
  address_more?: string | null;
  city?: string | null;
  state?: string | null;
  region?: string | null;
  country?: string | null;
  additional_info?: Record<string, unknown>;
  /** an account with this password for the e-mail (issue 13) */
  password?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ZIP = /^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/;

export function validateGuestIdentity(body: GuestIdentityBody) {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const first = text(body.first_name);
  const last = text(body.last_name);
  const email = text(body.email);
  if (!first) throw invalid('first_name', 'First name is required.');
  if (first.length > 50) throw invalid('first_name', 'First name must be at most 50 characters.');
  if (!last) throw invalid('last_name', 'Last name is required.');
  if (last.length > 50) throw invalid('last_name', 'Last name must be at most 50 characters.');
  if (!email) throw invalid('email', 'Email is required.');
  if (email.length > 254 || !EMAIL.test(email)) throw invalid('email', 'Email address is not valid.');
  if (body.email_confirm !== undefined && text(body.email_confirm).toLowerCase() !== email.toLowerCase()) {
    throw invalid('email_confirm', 'Email addresses must match.');
  }
  const phone = text(body.phone);
  if (phone.length > 50) throw invalid('phone', 'Phone must be at most 50 characters.');
  const zip = text(body.zip_code ?? body.zip);
  if (zip && (zip.length < 4 || zip.length > 10 || !ZIP.test(zip))) throw invalid('zip_code', 'Zip or post code is not valid.');
  // Spec section 5, with or without the address lookup: US 5 digits, the UK pattern; a state where the country has a list.
  const problems = addressProblems({ country: text(body.country), state: text(body.state), zip_code: zip });
  if (problems.zip_code) throw invalid('zip_code', 'Zip or post code is not valid.');
  if (problems.state) throw invalid('state', 'State is required.');
  const extra = body.additional_info ?? {};
  for (const [key, value] of Object.entries(extra)) {
    if (typeof value === 'string' && value.length > 1000) throw invalid(`additional_info.${key}`, 'Must be at most 1000 characters.');
  }
  const other = (v: unknown, field: string) => {
    const s = text(v);
    if (s.length > 1000) throw invalid(field, 'Must be at most 1000 characters.');
    return s || null;
  };
  return {
    first_name: first,
    last_name: last,
    email,
    phone: phone || null,
    zip_code: zip || null,
    address: other(body.address, 'address'),
    address_more: other(body.address_more, 'address_more'),
    city: other(body.city, 'city'),
    state: other(body.state, 'state'),
    region: other(body.region, 'region'),
    country: other(body.country, 'country'),
    additional_info: extra,
  };
}

/**
 * Creates the guest identity, bound to this browser's owner token so only it can check out with it. With a password
 * (issue 13: 'create an account' at checkout) the purchaser's account is made on it too, when the e-mail has none; an
 * e-mail that has one is answered as the login answers it (guest_account with a set-password link mailed, or
 * incorrect_password); the right password makes no second account: 409 email_in_use names the account's identity, which
 * this browser may then buy as (spec section 7: 'a 409 with identity_id reuses the existing identity').
 */
export async function createGuestIdentity(deps: Deps, seller: Seller, caller: Caller, body: GuestIdentityBody): Promise<string> {
  const fields = validateGuestIdentity(body);
  const password = typeof body.password === 'string' && body.password !== '' ? body.password : null;
  if (password !== null) {
    const rules = passwordProblems(password);
    if (rules.length > 0) throw new DomainError('validation_failed', 'Invalid password', 'checkout', { field: 'password', rules });
    const existing = await findUserByEmail(deps, seller.id, fields.email);
    if (existing) await refuseExistingAccount(deps, seller, existing, password, caller);
  }
  // Anonymous and cheap to call: an address may create only so many purchaser identities (issue 20, finding 4).
  if (caller.addressHash) await hit(deps, 'guest_identity_ip', caller.addressHash);
  const row = await deps.db
    .insertInto('identity')
    .values({
      seller_id: seller.id,
      is_public: false,
      ...fields,
      additional_info: JSON.stringify(fields.additional_info),
      meta: JSON.stringify({ guest: true, owner_token_hash: caller.tokenHash }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (password !== null) {
    const user = await deps.db
      .insertInto('app_user')
      .values({ seller_id: seller.id, identity_id: row.id, email: fields.email, password_hash: await hashPassword(password) })
      .onConflict((oc) => oc.expression(sql`seller_id, lower(email)`).doNothing())
      .returning('id')
      .executeTakeFirst();
    // Another request made the account for this e-mail meanwhile: that one stands.
    if (!user) throw emailInUse();
  }
  return row.id;
}

const emailInUse = (reuse?: { identityId: string; proof: string }) =>
  new DomainError('email_in_use', 'This e-mail address has an account.', 'checkout', {
    field: 'email',
    ...(reuse ? { identity_id: reuse.identityId, identity_proof: reuse.proof } : {}),
  });

/**
 * An e-mail with an account already: the same answers as a password login, one try against the login limits. The right
 * password proves the account is the visitor's, so this browser may check out as its identity for the next hour: the
 * 409 carries a signed proof bound to this browser's owner token (the checkout's `guest_identity_proof`), and the order
 * lands in the account. Nothing is written: the account's identity is not touched.
 */
async function refuseExistingAccount(deps: Deps, seller: Seller, user: User, password: string, caller: Caller): Promise<never> {
  if (!user.password_hash) {
    await sendPasswordResetFor(deps, seller, user);
    throw new DomainError('guest_account', GUEST_ACCOUNT, 'checkout');
  }
  const tries = await takeLoginTries(deps, `${seller.id}:${user.email.toLowerCase()}`, caller.addressHash ?? '');
  if (!(await verifyPassword(password, user.password_hash))) throw new DomainError('incorrect_password', INCORRECT_PASSWORD, 'checkout');
  await tries.giveBack();
  if (!caller.tokenHash) throw emailInUse();
  const expiresAt = new Date(deps.now().getTime() + IDENTITY_PROOF_SECONDS * 1000);
  const proof = signIdentityProof(await secretOf(deps.db, seller.id), user.identity_id, caller.tokenHash, expiresAt);
  throw emailInUse({ identityId: user.identity_id, proof });
}

import { sql } from 'kysely';
import type { Deps } from '../../deps';
import { NO_EMAIL_MARKER } from './tokens';
import type { User } from './sessions';

/**
 * The seller's user with this e-mail (case-insensitive, as the unique index on lower(email)). A staff preview's
 * visitor (app_user.preview_role, services/staff.ts) is nobody's account: no password login, one-time code, reset or
 * sign-in reaches it, so its undeliverable address is answered as an unknown one.
 */
export async function findUserByEmail(deps: Deps, sellerId: string, email: string): Promise<User | undefined> {
  return deps.db
    .selectFrom('app_user')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .where(sql<string>`lower(email)`, '=', email.trim().toLowerCase())
    .where('preview_role', 'is', null)
    .executeTakeFirst();
}

/**
 * The user of an identity, created on the first member-id login of a member who has none yet. Without a
 * usable e-mail the user gets the no-email marker, so the storefront asks for an address at checkout.
 */
export async function userForIdentity(deps: Deps, sellerId: string, identityId: string): Promise<User> {
  const existing = await deps.db.selectFrom('app_user').selectAll().where('identity_id', '=', identityId).executeTakeFirst();
  if (existing) return existing;
  const identity = await deps.db.selectFrom('identity').select(['email']).where('id', '=', identityId).executeTakeFirstOrThrow();
  const email = identity.email?.trim();
  const taken = email ? await findUserByEmail(deps, sellerId, email) : undefined;
  const address = email && !taken ? email : `${NO_EMAIL_MARKER}${identityId}@invalid`;
  await deps.db
    .insertInto('app_user')
    .values({ seller_id: sellerId, identity_id: identityId, email: address, password_hash: null })
    .onConflict((oc) => oc.expression(sql`seller_id, lower(email)`).doNothing())
    .execute();
  return deps.db.selectFrom('app_user').selectAll().where('identity_id', '=', identityId).executeTakeFirstOrThrow();
}

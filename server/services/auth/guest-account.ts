import { sql, type Transaction } from 'kysely';
import type { Deps } from '../../deps';
import type { Database } from '../../db/types';
import type { User } from './sessions';
import { findUserByEmail } from './users';

/**
 * A guest who bought (tickets, a membership) creates an account afterwards by asking for a link to set a password
 * for the address they bought with (issue 12: "a guest buys a membership, creates the account, sees it in
 * /my/membership"). Every guest checkout made its own purchaser identity; the account is made on the newest one
 * that holds an order, with no password, and only the e-mailed link gives it one. When the link is used (the
 * address is proven), the purchases of the address's other guest identities move to the account's identity.
 *
 * Guest identities only: an identity with a user of its own is never claimed, and nothing happens for an
 * address with no purchase (the request answers the same either way).
 */
const guestIdentities = (db: Deps['db'] | Transaction<Database>, sellerId: string, email: string) =>
  db
    .selectFrom('identity')
    .select('identity.id')
    .where('identity.seller_id', '=', sellerId)
    .where('identity.is_public', '=', false)
    .where(sql<string>`lower(identity.email)`, '=', email.trim().toLowerCase())
    .where(sql<string>`identity.meta->>'guest'`, '=', 'true')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('app_user').select('app_user.id').whereRef('app_user.identity_id', '=', 'identity.id'))),
    );

/** The user an address's guest purchases get, made when the address has no user yet; undefined without a purchase. */
export async function accountForGuestPurchaser(deps: Deps, sellerId: string, email: string): Promise<User | undefined> {
  const newest = await guestIdentities(deps.db, sellerId, email)
    .innerJoin('ticket_order', 'ticket_order.identity_id', 'identity.id')
    .orderBy('ticket_order.purchased_on', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!newest) return undefined;
  await deps.db
    .insertInto('app_user')
    .values({ seller_id: sellerId, identity_id: newest.id, email: email.trim(), password_hash: null })
    .onConflict((oc) => oc.expression(sql`seller_id, lower(email)`).doNothing())
    .execute();
  return findUserByEmail(deps, sellerId, email);
}

/** Moves the orders and memberships of the address's other guest identities to the user's identity (after the link
 *  proved the address). Their carts stay: a pending one is still the guest browser's own. */
export async function claimGuestPurchases(
  trx: Transaction<Database>,
  user: Pick<User, 'seller_id' | 'identity_id' | 'email'>,
): Promise<void> {
  const others = guestIdentities(trx, user.seller_id, user.email).where('identity.id', '<>', user.identity_id);
  await trx.updateTable('ticket_order').set({ identity_id: user.identity_id }).where('identity_id', 'in', others).execute();
  await trx.updateTable('membership').set({ identity_id: user.identity_id }).where('identity_id', 'in', others).execute();
}

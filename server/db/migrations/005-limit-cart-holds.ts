import { sql, type Kysely } from 'kysely';

/**
 * Against inventory hoarding (issue 20, finding 6): a cart remembers the network address that started it (as a
 * sha256, never the address itself), so the tickets the carts of one address hold can be counted and capped.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cart').addColumn('address_hash', 'text').execute();
  await sql`create index cart_pending_owner_idx on cart (owner_token_hash) where state = 'pending'`.execute(db);
  await sql`create index cart_pending_address_idx on cart (address_hash) where state = 'pending'`.execute(db);
  await sql`create index cart_pending_identity_idx on cart (identity_id) where state = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index cart_pending_identity_idx`.execute(db);
  await sql`drop index cart_pending_address_idx`.execute(db);
  await sql`drop index cart_pending_owner_idx`.execute(db);
  await db.schema.alterTable('cart').dropColumn('address_hash').execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * Cart transfer links (issue 17; spec section 2, /transfer-cart/{cartId}): the owner of a cart makes a link to carry
 * it to another browser or device. The link's token is 256 random bits that only the link holds; the row keeps its
 * sha256, the cart, when the link stops working, and when it was used: one conditional update takes it, once. A cart
 * keeps one live link (a new one replaces it); rows of deleted carts go with them, used and expired ones are swept
 * with the login tokens (jobs/auth-cleanup.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cart_transfer')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('cart_id', 'uuid', (c) => c.notNull().references('cart.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('cart_transfer_cart_ix').on('cart_transfer').column('cart_id').execute();
  await db.schema.createIndex('cart_transfer_expires_ix').on('cart_transfer').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cart_transfer').execute();
}

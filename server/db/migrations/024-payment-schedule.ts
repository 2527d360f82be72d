import { sql, type Kysely } from 'kysely';

/**
 * Scheduled payments (issue 13; spec sections 3, 4, 9): a cart the box office holds for a visitor (a group booking)
 * is paid in parts by their due dates. Each row is one part; what the cart's payments have covered is worked out from
 * the rows in due order, so a payment of any amount settles them without rewriting them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_schedule')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('cart_id', 'uuid', (c) => c.notNull().references('cart.id').onDelete('cascade'))
    .addColumn('due_on', 'timestamptz', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payment_schedule_cart_ix').on('payment_schedule').columns(['cart_id', 'due_on']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_schedule').execute();
}

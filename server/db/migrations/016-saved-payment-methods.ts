import { sql, type Kysely } from 'kysely';

/**
 * Saved payment methods (issue 22). A shopper's kept cards are `payment_method` rows (migration 006); now they can
 * be removed, so a membership that named a removed card keeps renewing with the member's other saved card (its
 * reference is cleared, not the membership). `gateway_customer` is the provider's customer a gateway attaches kept
 * cards to (a Stripe Customer), one per identity, seller and gateway: the unique index makes two checkouts at once
 * agree on one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('membership').dropConstraint('membership_payment_method_id_fkey').execute();
  await db.schema
    .alterTable('membership')
    .addForeignKeyConstraint('membership_payment_method_id_fkey', ['payment_method_id'], 'payment_method', ['id'], (c) =>
      c.onDelete('set null'),
    )
    .execute();
  await db.schema.createIndex('payment_method_identity_idx').on('payment_method').columns(['seller_id', 'identity_id']).execute();
  await db.schema
    .createTable('gateway_customer')
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('identity_id', 'uuid', (c) => c.notNull().references('identity.id'))
    .addColumn('gateway_id', 'text', (c) => c.notNull())
    .addColumn('customer_ref', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('gateway_customer_pk', ['seller_id', 'identity_id', 'gateway_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('gateway_customer').execute();
  await db.schema.dropIndex('payment_method_identity_idx').execute();
  await db.schema.alterTable('membership').dropConstraint('membership_payment_method_id_fkey').execute();
  await db.schema
    .alterTable('membership')
    .addForeignKeyConstraint('membership_payment_method_id_fkey', ['payment_method_id'], 'payment_method', ['id'])
    .execute();
}

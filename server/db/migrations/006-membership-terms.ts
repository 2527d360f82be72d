import { sql, type Kysely } from 'kysely';

/**
 * Memberships as they are sold (issue 12): who a membership covers, which member-benefit tickets it has given (the
 * tag the benefit check counts under the membership's row lock), and the saved payment method an auto-renewal
 * charges (the gateway's reusable token, never a card number).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('membership')
    .addColumn('members', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('renewed_from_id', 'uuid', (c) => c.references('membership.id'))
    .addColumn('renew_attempted_at', 'timestamptz')
    .addColumn('renew_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('membership_identity_idx').on('membership').columns(['identity_id', 'valid_to']).execute();
  await db.schema
    .alterTable('ticket')
    .addColumn('membership_id', 'uuid', (c) => c.references('membership.id').onDelete('set null'))
    .execute();
  await db.schema
    .createIndex('ticket_membership_session_idx')
    .on('ticket')
    .columns(['membership_id', 'event_session_id'])
    .where(sql.ref('membership_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('payment_method')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('identity_id', 'uuid', (c) => c.notNull().references('identity.id'))
    .addColumn('gateway_id', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The test gateway's provider-side record of saved cards (what a provider's customer vault keeps): test cards only.
  await db.schema
    .createTable('test_gateway_method')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('membership')
    .addColumn('payment_method_id', 'uuid', (c) => c.references('payment_method.id'))
    .execute();
  await db.schema
    .alterTable('gift_code')
    .addColumn('membership_members', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema.createIndex('gift_code_order_idx').on('gift_code').column('ticket_order_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('gift_code_order_idx').execute();
  await db.schema.alterTable('gift_code').dropColumn('membership_members').execute();
  await db.schema.alterTable('membership').dropColumn('payment_method_id').execute();
  await db.schema.dropTable('payment_method').execute();
  await db.schema.dropTable('test_gateway_method').execute();
  await db.schema.dropIndex('ticket_membership_session_idx').execute();
  await db.schema.alterTable('ticket').dropColumn('membership_id').execute();
  await db.schema.dropIndex('membership_identity_idx').execute();
  await db.schema
    .alterTable('membership')
    .dropColumn('members')
    .dropColumn('renewed_from_id')
    .dropColumn('renew_attempted_at')
    .dropColumn('renew_failures')
    .execute();
}

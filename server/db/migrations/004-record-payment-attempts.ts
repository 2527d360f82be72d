import { sql, type Kysely } from 'kysely';

/**
 * Payment attempts (issue 20, finding 7). A payment row is now written before the gateway is called, in the
 * transaction that claims the cart, and carries what a booking needs (the order's identity, whether to mail), so
 * that an attempt cut between the charge and the booking can be finished later by the reconciler, which asks the
 * gateway what became of it and books or refunds.
 *
 *   pending         written before the gateway call; outcome not yet recorded
 *   requires_action the provider wants the shopper to confirm (3-D Secure); the retry continues this attempt
 *   succeeded       charged, and recorded together with the booking
 *   failed          refused by the provider, or never charged (abandoned)
 *   refund_pending  charged but not bookable; the refund is owed (retried until the provider confirms it)
 *   refunded        given back
 *
 * test_gateway_charge is the provider's side of the built-in test gateway: what a real provider keeps about each
 * charge, keyed by the idempotency key we send, so a lookup after a crash can find it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table payment drop constraint payment_status_check`.execute(db);
  await sql`alter table payment add constraint payment_status_check
    check (status in ('pending','requires_action','succeeded','failed','refund_pending','refunded'))`.execute(db);
  await db.schema
    .alterTable('payment')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('order_identity_id', 'uuid', (c) => c.references('identity.id'))
    .addColumn('send_email', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await sql`create index payment_unsettled_idx on payment (updated_at) where status in ('pending','refund_pending')`.execute(db);

  await db.schema
    .createTable('test_gateway_charge')
    .addColumn('ref', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('requires_action','succeeded','refunded')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('refunded_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('test_gateway_charge').execute();
  await sql`drop index payment_unsettled_idx`.execute(db);
  await db.schema.alterTable('payment').dropColumn('updated_at').dropColumn('order_identity_id').dropColumn('send_email').execute();
  await sql`alter table payment drop constraint payment_status_check`.execute(db);
  await sql`alter table payment add constraint payment_status_check
    check (status in ('pending','succeeded','failed','refunded'))`.execute(db);
}

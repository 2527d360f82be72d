import { sql, type Kysely } from 'kysely';

/**
 * Order self-service beyond free cancellation (issue 17; spec sections 2, 4, 8):
 * - an edit cart is a cart of its own (its hold, its checkout) naming the order it changes (`cart.edit_order_id`); one
 *   open edit per order (`cart_open_edit_uq`), so two browsers cannot both be changing an order's places;
 * - a ticket of an edit cart names the booked ticket it replaces (`ticket.replaces_ticket_id`): a reschedule is the new
 *   ticket in the new session, and booking the edit gives back the old one's place in the same transaction;
 * - `order_refund`: what a cancellation gives back, one row per payment it is taken from, written with the tickets'
 *   cancellation and paid out through the gateway afterwards (never inside the transaction) under its own key;
 * - `test_gateway_refund`: the built-in test gateway's record of each refund (a provider refunds part of a charge,
 *   once per idempotency key, never more than was charged).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('cart')
    .addColumn('edit_order_id', 'uuid', (c) => c.references('ticket_order.id').onDelete('cascade'))
    .execute();
  await sql`create unique index cart_open_edit_uq on cart (edit_order_id)
    where edit_order_id is not null and state in ('pending', 'checking_out')`.execute(db);
  await db.schema
    .alterTable('ticket')
    .addColumn('replaces_ticket_id', 'uuid', (c) => c.references('ticket.id'))
    .execute();
  await sql`create index ticket_replaces_ix on ticket (replaces_ticket_id) where replaces_ticket_id is not null`.execute(db);

  await db.schema
    .createTable('order_refund')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('ticket_order_id', 'uuid', (c) => c.notNull().references('ticket_order.id').onDelete('cascade'))
    .addColumn('payment_id', 'uuid', (c) => c.notNull().references('payment.id'))
    .addColumn('gateway_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'succeeded', 'failed')`),
    )
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('ticket_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('order_refund_order_ix').on('order_refund').columns(['ticket_order_id', 'created_at']).execute();
  await db.schema.createIndex('order_refund_payment_ix').on('order_refund').column('payment_id').execute();
  await sql`create index order_refund_pending_ix on order_refund (updated_at) where status = 'pending'`.execute(db);

  await db.schema
    .createTable('test_gateway_refund')
    .addColumn('idempotency_key', 'text', (c) => c.primaryKey())
    .addColumn('ref', 'text', (c) => c.notNull().references('test_gateway_charge.ref'))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('test_gateway_refund_ref_ix').on('test_gateway_refund').column('ref').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('test_gateway_refund').execute();
  await db.schema.dropTable('order_refund').execute();
  await sql`drop index if exists ticket_replaces_ix`.execute(db);
  await db.schema.alterTable('ticket').dropColumn('replaces_ticket_id').execute();
  await sql`drop index if exists cart_open_edit_uq`.execute(db);
  await db.schema.alterTable('cart').dropColumn('edit_order_id').execute();
}

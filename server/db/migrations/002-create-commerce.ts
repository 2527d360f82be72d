import { sql, type Kysely } from 'kysely';

/** People and money: identities, users, auth, carts, tickets, orders, payments, memberships, codes, ledgers, mail. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = (c: any) => c.primaryKey().defaultTo(sql`gen_random_uuid()`);
  const now = (c: any) => c.notNull().defaultTo(sql`now()`);
  const seller = (c: any) => c.notNull().references('seller.id').onDelete('cascade');
  const json = (fallback: string) => (c: any) => c.notNull().defaultTo(sql.raw(`'${fallback}'::jsonb`));

  await db.schema
    .createTable('identity')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('is_public', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('address', 'text')
    .addColumn('address_more', 'text')
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('region', 'text')
    .addColumn('country', 'text')
    .addColumn('zip_code', 'text')
    .addColumn('additional_info', 'jsonb', json('{}'))
    .addColumn('meta', 'jsonb', json('{}'))
    .addColumn('created_at', 'timestamptz', now)
    .execute();
  await db.schema
    .createIndex('identity_seller_email_idx')
    .on('identity')
    .expression(sql`seller_id, lower(email)`)
    .execute();
  await sql`create unique index identity_public_uq on identity (seller_id) where is_public`.execute(db);

  await db.schema
    .createTable('app_user')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('identity_id', 'uuid', (c) => c.notNull().references('identity.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'timestamptz', now)
    .execute();
  await sql`create unique index app_user_seller_email_uq on app_user (seller_id, lower(email))`.execute(db);

  await db.schema
    .createTable('auth_session')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('login_token')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('otp','password_reset','email_link')`))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('code_hash', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('rate_limit')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('rate_limit_pk', ['key', 'window_start'])
    .execute();

  await db.schema
    .createTable('cart')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('cart_number', 'bigserial', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`state in ('pending','checking_out','completed','expired','cancelled')`),
    )
    .addColumn('identity_id', 'uuid', (c) => c.notNull().references('identity.id'))
    // The browser token that owns a cart made by the shared public identity.
    .addColumn('owner_token_hash', 'text')
    .addColumn('channel_id', 'text', (c) => c.notNull().defaultTo('web'))
    .addColumn('campaign', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('extended_at', 'timestamptz')
    .addColumn('auto_renew', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('giftee_identity_id', 'uuid', (c) => c.references('identity.id'))
    .addColumn('additional_info', 'jsonb', json('{}'))
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('updated_at', 'timestamptz', now)
    .execute();

  await db.schema
    .createTable('ticket_order')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('order_number', 'bigserial', (c) => c.notNull().unique())
    .addColumn('identity_id', 'uuid', (c) => c.notNull().references('identity.id'))
    .addColumn('cart_id', 'uuid', (c) => c.notNull().references('cart.id'))
    .addColumn('purchased_on', 'timestamptz', now)
    .addColumn('total_before_fees', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_fees', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_discount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_after_fees', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('booked'))
    .addColumn('access_token_hash', 'text')
    .addUniqueConstraint('ticket_order_cart_uq', ['cart_id'])
    .execute();

  await db.schema
    .createTable('ticket')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('cart_id', 'uuid', (c) => c.references('cart.id').onDelete('set null'))
    .addColumn('ticket_order_id', 'uuid', (c) => c.references('ticket_order.id'))
    .addColumn('event_template_id', 'uuid', (c) => c.notNull().references('event_template.id'))
    .addColumn('event_session_id', 'uuid', (c) => c.references('event_session.id'))
    .addColumn('ticket_group_id', 'uuid', (c) => c.notNull().references('ticket_group.id'))
    .addColumn('ticket_type_id', 'uuid', (c) => c.notNull().references('ticket_type.id'))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('in_cart','held','booked','redeemed','cancelled','unbooked')`))
    .addColumn('handler', 'text', (c) => c.notNull())
    .addColumn('valid_from', 'timestamptz')
    .addColumn('valid_to', 'timestamptz')
    .addColumn('admit_name', 'text')
    .addColumn('admit_email', 'text')
    .addColumn('face_value', 'integer', (c) => c.notNull().check(sql`face_value >= 0`))
    .addColumn('adjusted_value', 'integer', (c) => c.notNull().check(sql`adjusted_value >= 0`))
    .addColumn('fees', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scan_code', 'text', (c) => c.unique())
    .addColumn('seat_id', 'uuid', (c) => c.references('seat.id'))
    .addColumn('additional_info', 'jsonb', json('{}'))
    .addColumn('handler_data', 'jsonb', json('{}'))
    .addColumn('created_at', 'timestamptz', now)
    .execute();
  await db.schema.createIndex('ticket_cart_idx').on('ticket').column('cart_id').execute();
  await db.schema.createIndex('ticket_order_idx').on('ticket').column('ticket_order_id').execute();
  await db.schema.createIndex('ticket_session_idx').on('ticket').columns(['event_session_id', 'state']).execute();
  // A seat is sold once per session among live tickets.
  await sql`create unique index ticket_session_seat_uq on ticket (event_session_id, seat_id)
    where seat_id is not null and state in ('in_cart','held','booked','redeemed')`.execute(db);

  await db.schema
    .createTable('payment')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('cart_id', 'uuid', (c) => c.notNull().references('cart.id'))
    .addColumn('ticket_order_id', 'uuid', (c) => c.references('ticket_order.id'))
    .addColumn('gateway_id', 'text', (c) => c.notNull().check(sql`gateway_id in ('free','ledger','test','stripe')`))
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending','succeeded','failed','refunded')`))
    .addColumn('audit_action', 'text', (c) => c.notNull().defaultTo('capture'))
    .addColumn('gateway_ref', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('occurred_on', 'timestamptz', now)
    .execute();
  await db.schema.createIndex('payment_cart_idx').on('payment').column('cart_id').execute();

  await db.schema
    .createTable('scheduled_payment')
    .addColumn('id', 'uuid', id)
    .addColumn('cart_id', 'uuid', (c) => c.notNull().references('cart.id').onDelete('cascade'))
    .addColumn('due', 'timestamptz', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('scheduled'))
    .execute();

  await db.schema
    .createTable('webhook_event')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', now)
    .execute();

  await db.schema
    .createTable('membership_program')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('_rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('membership_program_seller_key_uq', ['seller_id', 'key'])
    .execute();

  await db.schema
    .createTable('role')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('membership_program_id', 'uuid', (c) => c.notNull().references('membership_program.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('_rank', 'integer', (c) => c.notNull().defaultTo(0))
    // The membership ticket type that sells this level.
    .addColumn('ticket_type_id', 'uuid', (c) => c.references('ticket_type.id'))
    .addColumn('duration_months', 'integer', (c) => c.notNull().defaultTo(12))
    .addColumn('giftable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('auto_renew', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('member_event_purchase_limit', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('benefits', 'jsonb', json('[]'))
    .addUniqueConstraint('role_seller_key_uq', ['seller_id', 'key'])
    .execute();

  await db.schema
    .createTable('membership_rule')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('role_id', 'uuid', (c) => c.notNull().references('role.id').onDelete('cascade'))
    .addColumn('ticket_type_id', 'uuid', (c) => c.references('ticket_type.id').onDelete('cascade'))
    .addColumn('ticket_group_id', 'uuid', (c) => c.references('ticket_group.id').onDelete('cascade'))
    .addColumn('party_role', 'text', (c) => c.notNull().defaultTo('member'))
    .addColumn('named', 'text', (c) =>
      c
        .notNull()
        .defaultTo('no')
        .check(sql`named in ('yes','no')`),
    )
    .addColumn('min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max', 'integer', (c) => c.notNull().defaultTo(-1))
    .execute();

  await db.schema
    .createTable('membership')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('identity_id', 'uuid', (c) => c.references('identity.id'))
    .addColumn('role_id', 'uuid', (c) => c.notNull().references('role.id'))
    .addColumn('membership_program_id', 'uuid', (c) => c.notNull().references('membership_program.id'))
    .addColumn('ticket_order_id', 'uuid', (c) => c.references('ticket_order.id'))
    .addColumn('ticket_id', 'uuid', (c) => c.references('ticket.id'))
    .addColumn('ticket_group_id', 'uuid', (c) => c.references('ticket_group.id'))
    .addColumn('event_template_id', 'uuid', (c) => c.references('event_template.id'))
    .addColumn('scan_code', 'text', (c) => c.notNull())
    .addColumn('zip_code', 'text')
    .addColumn('valid_from', 'timestamptz', (c) => c.notNull())
    .addColumn('valid_to', 'timestamptz', (c) => c.notNull())
    .addColumn('auto_renew_state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('other')
        .check(sql`auto_renew_state in ('scheduled','cancelled','other')`),
    )
    .addColumn('member_event_purchase_limit', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', 'timestamptz', now)
    .addUniqueConstraint('membership_seller_scan_code_uq', ['seller_id', 'scan_code'])
    .execute();

  await db.schema
    .createTable('gift_code')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('role_id', 'uuid', (c) => c.notNull().references('role.id'))
    .addColumn('ticket_order_id', 'uuid', (c) => c.references('ticket_order.id'))
    .addColumn('giver_identity_id', 'uuid', (c) => c.references('identity.id'))
    .addColumn('giftee_identity_id', 'uuid', (c) => c.references('identity.id'))
    .addColumn('valid_from', 'timestamptz', (c) => c.notNull())
    .addColumn('valid_to', 'timestamptz', (c) => c.notNull())
    .addColumn('redeemed_at', 'timestamptz')
    .addColumn('redeemed_membership_id', 'uuid', (c) => c.references('membership.id'))
    .addUniqueConstraint('gift_code_seller_code_uq', ['seller_id', 'code'])
    .execute();

  await db.schema
    .createTable('cart_mod')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('discount_type', 'text', (c) => c.notNull().check(sql`discount_type in ('percent','amount','price')`))
    .addColumn('discount_value', 'integer', (c) => c.notNull())
    .addColumn('ticket_type_ids', 'jsonb', json('[]'))
    .addColumn('blocking_checkout', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('resource', 'text')
    .addColumn('resource_id', 'uuid')
    .addColumn('activating_code_groups', 'jsonb', json('[]'))
    .addUniqueConstraint('cart_mod_seller_key_uq', ['seller_id', 'key'])
    .execute();

  await db.schema
    .createTable('promo_code')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('cart_mod_id', 'uuid', (c) => c.notNull().references('cart_mod.id').onDelete('cascade'))
    .addColumn('code_group', 'text')
    .addColumn('max_usage', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('valid_from', 'timestamptz')
    .addColumn('valid_to', 'timestamptz')
    .addColumn('advertise', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addCheckConstraint('promo_code_usage_ck', sql`max_usage < 0 or used <= max_usage`)
    .execute();
  await sql`create unique index promo_code_seller_code_uq on promo_code (seller_id, lower(code))`.execute(db);

  await db.schema
    .createTable('cart_code')
    .addColumn('cart_id', 'uuid', (c) => c.notNull().references('cart.id').onDelete('cascade'))
    .addColumn('promo_code_id', 'uuid', (c) => c.notNull().references('promo_code.id'))
    .addColumn('applied_at', 'timestamptz', now)
    .addPrimaryKeyConstraint('cart_code_pk', ['cart_id', 'promo_code_id'])
    .execute();

  await db.schema
    .createTable('ledger')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', seller)
    .addColumn('ledger_type', 'text', (c) => c.notNull().defaultTo('giftcard'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('balance', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'uuid', (c) => c.references('ticket.id'))
    .addColumn('created_at', 'timestamptz', now)
    // A gift-card balance is never negative, whatever the concurrency.
    .addCheckConstraint('ledger_balance_ck', sql`balance >= 0`)
    .addUniqueConstraint('ledger_seller_type_number_uq', ['seller_id', 'ledger_type', 'number'])
    .execute();

  await db.schema
    .createTable('ledger_entry')
    .addColumn('id', 'uuid', id)
    .addColumn('ledger_id', 'uuid', (c) => c.notNull().references('ledger.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('cart_id', 'uuid', (c) => c.references('cart.id'))
    .addColumn('payment_id', 'uuid', (c) => c.references('payment.id'))
    .addColumn('created_at', 'timestamptz', now)
    .execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'uuid', id)
    .addColumn('seller_id', 'uuid', (c) => c.references('seller.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text')
    .addColumn('meta', 'jsonb', json('{}'))
    .addColumn('created_at', 'timestamptz', now)
    .addColumn('sent_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'mail_outbox',
    'ledger_entry',
    'ledger',
    'cart_code',
    'promo_code',
    'cart_mod',
    'gift_code',
    'membership',
    'membership_rule',
    'role',
    'membership_program',
    'webhook_event',
    'scheduled_payment',
    'payment',
    'ticket',
    'ticket_order',
    'cart',
    'rate_limit',
    'login_token',
    'auth_session',
    'app_user',
    'identity',
  ]) {
    await db.schema.dropTable(t).ifExists().cascade().execute();
  }
}

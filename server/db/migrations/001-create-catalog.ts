import { sql, type Kysely } from 'kysely';

/** Sellers, venues, events, sessions, ticket groups/types/rules, message rules, seat maps, images. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seller')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('config', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('strings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('content_blocks', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('public_identity_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('venue')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('address', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('venue_seller_key_uq', ['seller_id', 'key'])
    .execute();

  await db.schema
    .createTable('image')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('data', 'bytea', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addUniqueConstraint('image_seller_key_uq', ['seller_id', 'key'])
    .execute();

  await db.schema
    .createTable('seat_map')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('other_elements', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('map_geometry', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('seat_map_seller_key_uq', ['seller_id', 'key'])
    .execute();

  await db.schema
    .createTable('seat')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seat_map_id', 'uuid', (c) => c.notNull().references('seat_map.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('section', 'text', (c) => c.notNull())
    .addColumn('row_label', 'text', (c) => c.notNull())
    .addColumn('x', 'real', (c) => c.notNull())
    .addColumn('y', 'real', (c) => c.notNull())
    .addColumn('r', 'real', (c) => c.notNull())
    .addColumn('previous_seat', 'text')
    .addColumn('next_seat', 'text')
    .addColumn('ticket_group_keys', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('unavailable', 'boolean', (c) => c.notNull().defaultTo(false))
    .addUniqueConstraint('seat_map_name_uq', ['seat_map_id', 'name'])
    .execute();

  await db.schema
    .createTable('event_template')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'uuid', (c) => c.references('venue.id'))
    .addColumn('seat_map_id', 'uuid', (c) => c.references('seat_map.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('subtitle', 'text')
    .addColumn('summary', 'text')
    .addColumn('description', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull().check(sql`event_type in ('single','repeating','other')`))
    .addColumn('hidden_type', 'text', (c) =>
      c
        .notNull()
        .defaultTo('public_browsable')
        .check(sql`hidden_type in ('public_browsable','public_member_only','public_link_only','hidden')`),
    )
    .addColumn('_rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('config', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('meta', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('event_template_seller_key_uq', ['seller_id', 'key'])
    .execute();

  await db.schema
    .createTable('ticket_group')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('event_template_id', 'uuid', (c) => c.notNull().references('event_template.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('summary', 'text')
    .addColumn('color', 'text')
    .addColumn('handler', 'text', (c) =>
      c.notNull().check(sql`handler in ('tickets','passes','codes','seated','ledger','donation','membership','citypass')`),
    )
    .addColumn('hidden_type', 'text', (c) => c.notNull().defaultTo('public_browsable'))
    .addColumn('_rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('min_tickets_per_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_tickets_per_order', 'integer', (c) => c.notNull().defaultTo(-1))
    // Per-session capacity of this group (-1 unlimited); usage per session lives in session_ticket_group.
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('oversell_capacity', 'integer', (c) => c.notNull().defaultTo(0))
    // Usage of groups that are not sold per session (flexible admission, gift cards, donations, memberships).
    .addColumn('used_capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exclude_from_event_capacity', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('flexible', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('sales_start', 'timestamptz')
    .addColumn('sales_end', 'timestamptz')
    .addColumn('start_policy', 'text')
    .addColumn('start_policy_date', 'timestamptz')
    .addColumn('duration_new', 'text')
    .addColumn('additional_info_spec', 'jsonb')
    .addColumn('meta', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('config', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('ticket_group_event_key_uq', ['event_template_id', 'key'])
    .addCheckConstraint('ticket_group_capacity_ck', sql`flexible = false or capacity < 0 or used_capacity <= capacity + oversell_capacity`)
    .execute();

  await db.schema
    .createTable('ticket_type')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('ticket_group_id', 'uuid', (c) => c.notNull().references('ticket_group.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('_rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('summary', 'text')
    .addColumn('description', 'text')
    // Money in minor units of the seller currency.
    .addColumn('price', 'integer', (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('price_min', 'integer')
    .addColumn('price_max', 'integer')
    .addColumn('discounted_price', 'integer')
    .addColumn('outside_fees', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('member_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('meta', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addUniqueConstraint('ticket_type_group_key_uq', ['ticket_group_id', 'key'])
    .execute();

  await db.schema
    .createTable('ticket_rule')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('ticket_group_id', 'uuid', (c) => c.notNull().references('ticket_group.id').onDelete('cascade'))
    .addColumn('ticket_type_id', 'uuid', (c) => c.references('ticket_type.id').onDelete('cascade'))
    .addColumn('party_role', 'text', (c) => c.notNull().defaultTo('guest'))
    .addColumn('named', 'text', (c) =>
      c
        .notNull()
        .defaultTo('no')
        .check(sql`named in ('yes','no','optional')`),
    )
    .addColumn('emailed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('min', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max', 'integer', (c) => c.notNull().defaultTo(-1))
    .execute();

  await db.schema
    .createTable('message_rule')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('event_template_id', 'uuid', (c) => c.notNull().references('event_template.id').onDelete('cascade'))
    .addColumn('_rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('triggers', 'jsonb', (c) => c.notNull())
    .addColumn('actions', 'jsonb', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('event_session')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('event_template_id', 'uuid', (c) => c.notNull().references('event_template.id').onDelete('cascade'))
    .addColumn('start_datetime', 'timestamptz', (c) => c.notNull())
    .addColumn('end_datetime', 'timestamptz', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('oversell_capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('price_increase', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('annotations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('active'))
    .addUniqueConstraint('event_session_template_start_uq', ['event_template_id', 'start_datetime'])
    // The one rule that must never break: a session is never sold beyond capacity plus oversell.
    .addCheckConstraint('event_session_capacity_ck', sql`capacity < 0 or used_capacity <= capacity + oversell_capacity`)
    .addCheckConstraint('event_session_used_ck', sql`used_capacity >= 0`)
    .execute();
  await db.schema
    .createIndex('event_session_template_start_idx')
    .on('event_session')
    .columns(['event_template_id', 'start_datetime'])
    .execute();

  await db.schema
    .createTable('session_ticket_group')
    .addColumn('event_session_id', 'uuid', (c) => c.notNull().references('event_session.id').onDelete('cascade'))
    .addColumn('ticket_group_id', 'uuid', (c) => c.notNull().references('ticket_group.id').onDelete('cascade'))
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(-1))
    .addColumn('oversell_capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_capacity', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('session_ticket_group_pk', ['event_session_id', 'ticket_group_id'])
    .addCheckConstraint('session_ticket_group_capacity_ck', sql`capacity < 0 or used_capacity <= capacity + oversell_capacity`)
    .addCheckConstraint('session_ticket_group_used_ck', sql`used_capacity >= 0`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'session_ticket_group',
    'event_session',
    'message_rule',
    'ticket_rule',
    'ticket_type',
    'ticket_group',
    'event_template',
    'seat',
    'seat_map',
    'image',
    'venue',
    'seller',
  ]) {
    await db.schema.dropTable(t).ifExists().cascade().execute();
  }
}

import { sql, type Kysely } from 'kysely';

/**
 * Support staff (issue 18): staff accounts per seller, loaded from the seller folder's staff.json with hashed
 * passwords, and their sessions, apart from shoppers' (a staff cookie never logs a shopper in, and a shopper's never a
 * member of staff). A session may carry a preview: whom the storefront is shown as (anonymous, logged in, member,
 * expired member), on which date, with which content blocks. `app_user.preview_role` marks the users the server
 * shows a preview as (never logged in to: no password): real rows, so every rule reads them as it reads a visitor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staff')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index staff_seller_email_uq on staff (seller_id, lower(email))`.execute(db);
  await db.schema
    .createTable('staff_session')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'uuid', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('preview', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('app_user').addColumn('preview_role', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('app_user').dropColumn('preview_role').execute();
  await db.schema.dropTable('staff_session').execute();
  await db.schema.dropTable('staff').execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * Single sign-on through OpenID Connect (issue 18): each login started at GET sso/start waits here for its return
 * leg, keyed by the sha256 of its `state` (the browser holds the state itself in an httpOnly cookie). The row keeps
 * what must never travel through the browser: the PKCE verifier and the nonce, and where to go back to with which
 * cart. GET sso/callback deletes it as it reads it, so a return is honoured once; expired rows are swept with the
 * login tokens (jobs/auth-cleanup.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_attempt')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('seller_id', 'uuid', (c) => c.notNull().references('seller.id').onDelete('cascade'))
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('return_path', 'text', (c) => c.notNull())
    .addColumn('cart_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sso_attempt_expires_idx').on('sso_attempt').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_attempt').execute();
}

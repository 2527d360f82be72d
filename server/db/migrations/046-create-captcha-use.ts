import { sql, type Kysely } from 'kysely';

/**
 * Captcha solutions already spent (issue 14): a solution pays for one guest checkout. The primary key on the
 * provider's challenge id makes two checkouts sending one solution at once spend it once; rows go once their
 * challenge has expired (a later use is refused as expired anyway).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('captcha_use')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('challenge_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('captcha_use_pk', ['provider', 'challenge_id'])
    .execute();
  await db.schema.createIndex('captcha_use_expires_ix').on('captcha_use').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('captcha_use').execute();
}

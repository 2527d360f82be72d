import { sql, type Kysely } from 'kysely';

/**
 * Each seller's secret for the signed manage links of its order e-mails (issue 17): `/manage/{orderId}?sig=...`
 * proves to the API that the visitor holds the e-mail, since an order id alone must never be enough. 244 random
 * bits from two v4 UUIDs (gen_random_uuid draws from the server's strong random source); existing sellers get
 * theirs here, new ones from the default. Rotating it (an UPDATE) voids every link already mailed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('seller')
    .addColumn('manage_link_secret', 'text', (c) =>
      c.notNull().defaultTo(sql`replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('seller').dropColumn('manage_link_secret').execute();
}

import type { Kysely } from 'kysely';

/**
 * The one-statement reserve (issue 19) checks the per-address hold cap without reading tickets: `hold_tally` is an
 * upper bound of the tickets the carts of one address hold in one session (or sessionless group), raised by the
 * reserve statement under a guarded `held + n <= cap`, never lowered by a release. When it says full, the request
 * takes the locked path, which counts the tickets themselves and writes the exact figure back (cart/holds.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hold_tally')
    .addColumn('address_hash', 'text', (c) => c.notNull())
    .addColumn('scope_id', 'uuid', (c) => c.notNull())
    .addColumn('held', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('hold_tally_pk', ['address_hash', 'scope_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('hold_tally').execute();
}

import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { isOtherSchemaGone, migrateToLatest } from '../../server/db';
import { describeEachDatabase } from '../helpers/db';

const statements: string[] = [];

/** Issue 19 (instant start): a database that has every migration is checked with one read of Kysely's record, not
 *  by the Migrator's reads of the whole catalogue; one that lacks a record goes to the Migrator as before. */
describeEachDatabase(
  'migrateToLatest on a current database',
  (ctx) => {
    it('reads the migration record once and runs nothing', async () => {
      statements.length = 0;
      await migrateToLatest(ctx().db);
      expect(statements).toHaveLength(2);
      expect(statements[1]).toMatch(/select name from .*kysely_migration/);
    });

    it('a record missing one migration goes to the Migrator (which takes its lock)', async () => {
      statements.length = 0;
      // The record says one is missing; its tables are there, so the Migrator's own run of it is what we look for.
      await ctx()
        .db.deleteFrom('kysely_migration' as never)
        .where('name' as never, '=', '003-sanitize-seller-html' as never)
        .execute();
      await migrateToLatest(ctx().db).catch(() => undefined);
      expect(statements.some((s) => /kysely_migration_lock/.test(s))).toBe(true);
    });
  },
  undefined,
  { onQuery: (sql) => statements.push(sql) },
);

/** Another test file (or tenant) dropping its schema while Kysely reads the whole catalogue fails that read with
 *  3F000 naming that schema; migrateToLatest looks again (isOtherSchemaGone). Seen once in a parallel run on PostgreSQL. */
describeEachDatabase('a schema dropped elsewhere during a migration', (ctx) => {
  it("is told apart from this database's own schema missing, on PostgreSQL's own error", async () => {
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(ctx().db)).rows[0].s;
    const gone = await sql`select has_schema_privilege('t_dropped_elsewhere', 'USAGE')`.execute(ctx().db).catch((err: unknown) => err);
    expect(gone).toMatchObject({ code: '3F000' });
    expect(isOtherSchemaGone(gone, schema)).toBe(true);
    expect(isOtherSchemaGone(gone, 't_dropped_elsewhere')).toBe(false);
    const other = await sql`select nope from kysely_migration`.execute(ctx().db).catch((err: unknown) => err);
    expect(isOtherSchemaGone(other, schema)).toBe(false);
    expect(isOtherSchemaGone(undefined, schema)).toBe(false);
  });
});

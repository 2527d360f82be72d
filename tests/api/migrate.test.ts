import { expect, it } from 'vitest';
import { migrateToLatest } from '../../server/db';
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

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, PostgresIntrospector, sql } from 'kysely';
import pg from 'pg';
import { dropSchema, migrateToLatest, openDatabase } from '../../server/db';
import { OwnSchemaIntrospector } from '../../server/db/own-schema-introspector';
import type { Database } from '../../server/db/types';
import { describeEachDatabase } from '../helpers/db';

const statements: string[] = [];
const ADMIN_URL = process.env.TEST_DATABASE_URL;

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

describeEachDatabase("the catalogue look in the connection's schema", (ctx) => {
  it("lists this schema's tables and columns as Kysely's own introspector does", async () => {
    const db = ctx().db as unknown as Kysely<unknown>;
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s;
    for (const withInternalKyselyTables of [false, true]) {
      const own = await new OwnSchemaIntrospector(db).getTables({ withInternalKyselyTables });
      const kysely = (await new PostgresIntrospector(db).getTables({ withInternalKyselyTables })).filter((t) => t.schema === schema);
      expect(own.length).toBeGreaterThan(20);
      expect(own).toEqual(kysely);
    }
    expect(await new OwnSchemaIntrospector(db).getSchemas()).toEqual(await new PostgresIntrospector(db).getSchemas());
  });
});

/** The Migrator's catalogue look reads the connection's own schema (own-schema-introspector.ts). Kysely's own look reads
 *  every schema by name, so another client dropping schemas meanwhile (the API tests' files as they finish) failed it:
 *  'migration failed: schema "t_..." does not exist', seen in parallel runs on PostgreSQL. */
describe.runIf(ADMIN_URL)('migrating while another client drops its schemas [postgres]', () => {
  /** Migrates up to `count` fresh schemas one after another while three clients create and drop schemas of 10 tables;
   *  with `untilFailure`, stops at the first that fails. */
  async function migrateWhileSchemasDrop(open: (schema: string) => Promise<Kysely<Database>>, count: number, untilFailure = false) {
    const tag = randomBytes(4).toString('hex');
    let churning = true;
    const churn = async (i: number) => {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      for (let n = 0; churning; n++) {
        const s = `churn_${tag}_${i}_${n}`;
        await c.query(`create schema ${s}`);
        for (let t = 0; t < 10; t++) await c.query(`create table ${s}.t${t} (id serial primary key, note text)`);
        await c.query(`drop schema ${s} cascade`);
      }
      await c.end();
    };
    const churners = [0, 1, 2].map(churn);
    const failures: string[] = [];
    for (let i = 0; i < count && !(untilFailure && failures.length > 0); i++) {
      const schema = `t_${tag}_m${i}`;
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const db = await open(schema);
      await migrateToLatest(db).catch((err: Error) => failures.push(err.message));
      await db.destroy();
      await dropSchema(ADMIN_URL!, schema);
    }
    churning = false;
    await Promise.all(churners);
    return failures;
  }
  const pool = (schema: string) => new pg.Pool({ connectionString: ADMIN_URL, max: 2, options: `-c search_path="${schema}",public` });

  it('every migration succeeds', async () => {
    const failures = await migrateWhileSchemasDrop(async (schema) => (await openDatabase({ databaseUrl: ADMIN_URL, schema })).db, 4);
    expect(failures).toEqual([]);
  }, 60_000);

  // Up to 12 migrations, stopping at the first that fails: room for a slow, busy machine, where fewer drops meet a look.
  it("control: with Kysely's own introspector some fail", async () => {
    const failures = await migrateWhileSchemasDrop(
      async (schema) => new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool(schema) }) }),
      12,
      true,
    );
    expect(failures.length).toBeGreaterThan(0);
  }, 60_000);
});

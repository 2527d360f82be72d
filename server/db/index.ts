import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type LogEvent, type Migration, type MigrationProvider } from 'kysely';
import { OwnSchemaIntrospector } from './own-schema-introspector';
import type pgModule from 'pg';
import { QueuedPGliteDialect } from './pglite-dialect';
import { lockDataDir } from './data-dir-lock';
import { preparingPool } from './prepared';
import type { Database } from './types';
import * as m001 from './migrations/001-create-catalog';
import * as m002 from './migrations/002-create-commerce';
import * as m003 from './migrations/003-sanitize-seller-html';
import * as m004 from './migrations/004-record-payment-attempts';
import * as m005 from './migrations/005-limit-cart-holds';
import * as m006 from './migrations/006-membership-terms';
import * as m010 from './migrations/010-add-seat-number';
import * as m012 from './migrations/012-add-manage-link-secret';
import * as m014 from './migrations/014-promo-code-uses';
import * as m016 from './migrations/016-saved-payment-methods';
import * as m017 from './migrations/017-sso-attempt';
import * as m018 from './migrations/018-hold-tally';
import * as m020 from './migrations/020-staff-preview';
import * as m021 from './migrations/021-citypass-code';
import * as m022 from './migrations/022-sso-logout';
import * as m023 from './migrations/023-ledger-entry-key';
import * as m024 from './migrations/024-payment-schedule';
import * as m030 from './migrations/030-add-order-edits';
import * as m035 from './migrations/035-cart-transfer';
import * as m045 from './migrations/045-create-job';
import * as m046 from './migrations/046-create-captcha-use';

export type Db = Kysely<Database>;
export type DbKind = 'pglite' | 'postgres';
export interface DbHandle {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

/** A static list, so migrations work bundled and need no file-system scan. Never edit a landed migration. */
const migrations: Record<string, Migration> = {
  '001-create-catalog': m001,
  '002-create-commerce': m002,
  '003-sanitize-seller-html': m003,
  '004-record-payment-attempts': m004,
  '005-limit-cart-holds': m005,
  '006-membership-terms': m006,
  '010-add-seat-number': m010,
  '012-add-manage-link-secret': m012,
  '014-promo-code-uses': m014,
  '016-saved-payment-methods': m016,
  '017-sso-attempt': m017,
  '018-hold-tally': m018,
  '020-staff-preview': m020,
  '021-citypass-code': m021,
  '022-sso-logout': m022,
  '023-ledger-entry-key': m023,
  '024-payment-schedule': m024,
  '030-add-order-edits': m030,
  '035-cart-transfer': m035,
  '045-create-job': m045,
  '046-create-captcha-use': m046,
};
const provider: MigrationProvider = { getMigrations: async () => migrations };

/** node-postgres, loaded the first time a PostgreSQL database is opened: a PGlite start does not load it. */
let pgLoaded: Promise<typeof pgModule> | undefined;
function loadPg(): Promise<typeof pgModule> {
  return (pgLoaded ??= import('pg').then((m) => {
    const pg = (m as { default?: typeof pgModule }).default ?? (m as unknown as typeof pgModule);
    // bigint counters (cart_number, order_number) and numeric come back as strings, like the wire format.
    pg.types.setTypeParser(20, (v) => v);
    return pg;
  }));
}

export interface OpenOptions {
  /** postgres://... ; when absent an embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder; absent means in memory. */
  dataDir?: string;
  /** PostgreSQL schema to use (tests give each file its own). */
  schema?: string;
  poolSize?: number;
  /** Called with the text of every statement sent, BEGIN and COMMIT included (tests count statements per request). */
  onQuery?: (sql: string) => void;
  /**
   * PGlite only: a data folder dumped by `dumpDataDir` to start from instead of running initdb (about 0.6 s against
   * 2.5-4 s). The API tests start every database from one migrated image (tests/helpers/pglite-image.ts).
   */
  pgliteImage?: Blob;
}

/** PostgreSQL through node-postgres; the catalogue is read in the connection's own schema (own-schema-introspector.ts). */
class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>) {
    return new OwnSchemaIntrospector(db);
  }
}

const logOf = (opts: OpenOptions) => (opts.onQuery ? (e: LogEvent) => opts.onQuery!(e.query.sql) : undefined);

export async function openDatabase(opts: OpenOptions = {}): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const pg = await loadPg();
    if (opts.schema) {
      const admin = new pg.Client({ connectionString: opts.databaseUrl });
      await admin.connect();
      await admin.query(`create schema if not exists "${opts.schema}"`);
      await admin.end();
    }
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 20,
      ...(opts.schema ? { options: `-c search_path="${opts.schema}",public` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool: preparingPool(pool) }), log: logOf(opts) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  // A folder on disk has one writer: a second process refuses to open it (data-dir-lock.ts).
  const unlock = opts.dataDir ? lockDataDir(opts.dataDir) : () => {};
  try {
    const pglite = new PGlite({
      ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
      ...(opts.pgliteImage ? { loadDataDir: opts.pgliteImage } : {}),
    });
    await pglite.waitReady;
    const db = new Kysely<Database>({ dialect: new QueuedPGliteDialect(pglite), log: logOf(opts) });
    return {
      db,
      kind: 'pglite',
      close: async () => {
        try {
          await db.destroy();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/**
 * Whether every migration of the list has run here: one read of Kysely's own record. The Migrator checks its tables by
 * reading the whole catalogue (all tables and columns, several times) before it takes its lock; on PGlite that was
 * about a second of every start of a current database (issue 19, instant start). Anything missing, or no record yet
 * (a new database), goes to the Migrator, which takes its lock and runs what is missing exactly as before.
 */
async function allApplied(db: Db, schema: string): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(`${schema}.kysely_migration`)}`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    // Exactly the list: a record this build does not know (a newer build migrated the database) goes to the Migrator,
    // which refuses to run on it.
    return applied.size === Object.keys(migrations).length && Object.keys(migrations).every((name) => applied.has(name));
  } catch {
    return false;
  }
}

export async function migrateToLatest(db: Db): Promise<void> {
  // Name the schema of the migration tables: otherwise Kysely looks for them in every schema of the
  // database and a second schema migrating at the same time (parallel test files) sees the first one's.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema ?? 'public';
  if (await allApplied(db, schema)) return;
  // Unordered: branches developed side by side number their migrations apart (006 landed after 010); each runs once.
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed)
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? error}`, { cause: error });
}

export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const pg = await loadPg();
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`drop schema if exists "${schema}" cascade`);
  await admin.end();
}

export { sql };

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { dropSchema, migrateToLatest, openDatabase, type DbHandle, type DbKind } from '../../server/db';
import { pgliteImage } from './pglite-image';

/** The databases the API tests run on: always PGlite; PostgreSQL too when TEST_DATABASE_URL is set. */
export function databases(): Array<{ kind: DbKind; url?: string }> {
  const list: Array<{ kind: DbKind; url?: string }> = [{ kind: 'pglite' }];
  if (process.env.TEST_DATABASE_URL) list.push({ kind: 'postgres', url: process.env.TEST_DATABASE_URL });
  return list;
}

const openOptions = new WeakMap<DbHandle, { databaseUrl: string; schema: string }>();

/**
 * Another connection pool on the same database (and schema) as `handle`, as a second server process has: on
 * PostgreSQL a new pool of its own; PGlite has one session in one process, so there it is `handle` itself (close()
 * then does nothing).
 */
export async function openAnotherHandle(handle: DbHandle): Promise<DbHandle> {
  const same = openOptions.get(handle);
  if (!same) return { ...handle, close: async () => undefined };
  return openDatabase(same);
}

/**
 * describe() once per database with a fresh, migrated database (PGlite in memory, or a schema of its
 * own on PostgreSQL, dropped afterwards). `setup` runs once after migration (load a seller, ...).
 */
export function describeEachDatabase(
  name: string,
  body: (ctx: () => DbHandle) => void,
  setup?: (h: DbHandle) => Promise<void>,
  opts: { onQuery?: (sql: string) => void } = {},
) {
  for (const target of databases()) {
    describe(`${name} [${target.kind}]`, () => {
      let handle: DbHandle;
      const schema = `t_${randomBytes(6).toString('hex')}`;
      beforeAll(async () => {
        handle = await openDatabase({
          ...(target.url ? { databaseUrl: target.url, schema } : { pgliteImage: pgliteImage() }),
          onQuery: opts.onQuery,
        });
        if (target.url) openOptions.set(handle, { databaseUrl: target.url, schema });
        await migrateToLatest(handle.db);
        if (setup) await setup(handle);
      }, 60_000);
      afterAll(async () => {
        await handle?.close();
        if (target.url) await dropSchema(target.url, schema);
      });
      body(() => handle);
    });
  }
}

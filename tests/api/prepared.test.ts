import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../server/db';
import { AUTO_PREPARED_PER_CONNECTION, PREPARED } from '../../server/db/prepared';

/**
 * Reads run on PostgreSQL as named prepared statements (server/db/prepared.ts): marked ones always, other reads with
 * values up to a number of texts per connection; writes and statements without values stay unnamed. One connection,
 * so its session's pg_prepared_statements and pg_backend_pid() tell.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('prepared statements [postgres]', () => {
  async function withOneConnection(use: (handle: DbHandle) => Promise<void>) {
    const handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, poolSize: 1 });
    try {
      await use(handle);
    } finally {
      await handle.close();
    }
  }
  const kept = async (handle: DbHandle) =>
    (
      await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements order by prepare_time`.execute(
        handle.db,
      )
    ).rows;

  it('a marked statement and a read with values are prepared once per connection; writes and reads without values are not', async () => {
    await withOneConnection(async (handle) => {
      const marked = (n: number) => sql<{ v: number }>`${sql.raw(PREPARED)} select ${n}::int + 1 as v`.execute(handle.db);
      expect((await marked(1)).rows).toEqual([{ v: 2 }]);
      expect((await marked(41)).rows).toEqual([{ v: 42 }]);
      const read = (n: number) => sql<{ v: number }>`select ${n}::int * 2 as v`.execute(handle.db);
      expect((await read(2)).rows).toEqual([{ v: 4 }]);
      expect((await read(21)).rows).toEqual([{ v: 42 }]);
      await sql`select 1 as without_values`.execute(handle.db);
      await sql`create temporary table scratch (v int)`.execute(handle.db);
      await sql`insert into scratch (v) values (${1})`.execute(handle.db);
      const rows = await kept(handle);
      // pg_prepared_statements itself runs without values: not kept either
      expect(rows.map((r) => r.statement.trim())).toEqual([`${PREPARED} select $1::int + 1 as v`, 'select $1::int * 2 as v']);
      expect(rows[0].name).toMatch(/^p_[0-9a-f]{24}$/);
    });
  });

  it(`a connection keeps at most ${AUTO_PREPARED_PER_CONNECTION} reads; later texts run unnamed, marked ones still prepared`, async () => {
    await withOneConnection(async (handle) => {
      for (let i = 0; i < AUTO_PREPARED_PER_CONNECTION + 20; i++) {
        expect((await sql<{ v: number }>`select ${i}::int as ${sql.ref(`v${i}`)}`.execute(handle.db)).rows).toEqual([{ [`v${i}`]: i }]);
      }
      await sql`${sql.raw(PREPARED)} select ${1}::int as marked`.execute(handle.db);
      const rows = await kept(handle);
      expect(rows).toHaveLength(AUTO_PREPARED_PER_CONNECTION + 1);
      expect(rows.at(-1)!.statement).toContain('as marked');
    });
  });

  it('a table changing shape under a kept select: sent again unnamed outside a transaction, refused inside one; the connection is replaced', async () => {
    const table = `prepared_shape_${process.pid}_${Date.now()}`;
    await withOneConnection(async (handle) => {
      const db = handle.db;
      await sql`create table ${sql.table(table)} (id int primary key)`.execute(db);
      try {
        await sql`insert into ${sql.table(table)} (id) values (1)`.execute(db);
        const read = (on: typeof db = db) => sql<Record<string, unknown>>`select * from ${sql.table(table)} where id = ${1}`.execute(on);
        expect((await read()).rows).toEqual([{ id: 1 }]);
        const pid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0].pid;
        const before = await pid();
        await sql`alter table ${sql.table(table)} add column note text default 'new'`.execute(db);
        expect((await read()).rows).toEqual([{ id: 1, note: 'new' }]);
        const after = await pid();
        expect(after).not.toBe(before);

        // the new connection prepares it afresh; then the table changes again, this time under a transaction
        expect((await read()).rows).toEqual([{ id: 1, note: 'new' }]);
        await sql`alter table ${sql.table(table)} add column more int default 2`.execute(db);
        await expect(db.transaction().execute((trx) => read(trx))).rejects.toThrow(/cached plan must not change result type/);
        expect(await pid()).not.toBe(after);
        expect((await read()).rows).toEqual([{ id: 1, note: 'new', more: 2 }]);
      } finally {
        await sql`drop table if exists ${sql.table(table)}`.execute(db);
      }
    });
  });
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db';
import { PREPARED } from '../../server/db/prepared';

/**
 * Statements marked PREPARED run on PostgreSQL as named prepared statements (server/db/prepared.ts), each text parsed
 * once per connection; others stay unnamed. One connection, so its session's pg_prepared_statements tells.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('prepared statements [postgres]', () => {
  it('a marked statement is prepared once per connection and runs with new values; an unmarked one is not kept', async () => {
    const handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, poolSize: 1 });
    try {
      const marked = (n: number) => sql<{ v: number }>`${sql.raw(PREPARED)} select ${n}::int + 1 as v`.execute(handle.db);
      expect((await marked(1)).rows).toEqual([{ v: 2 }]);
      expect((await marked(41)).rows).toEqual([{ v: 42 }]);
      await sql`select 1 as unmarked`.execute(handle.db);
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(
        handle.db,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].name).toMatch(/^p_[0-9a-f]{24}$/);
      expect(rows[0].statement).toContain('select $1::int + 1 as v');
    } finally {
      await handle.close();
    }
  });
});

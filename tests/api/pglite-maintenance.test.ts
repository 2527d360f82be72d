import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { maintainPglite } from '../../server/jobs/pglite-maintenance';
import { describeEachDatabase } from '../helpers/db';
import type { Db } from '../../server/db';

interface TableStats {
  n_live_tup: number;
  n_dead_tup: number;
  n_mod_since_analyze: number;
  reltuples: number;
}

/** The table's counters as the statistics system has them: a backend reports its own at most once a second, so the
 *  report is forced first. */
async function tableStats(db: Db, table: string): Promise<TableStats> {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  await sql`select 1`.execute(db);
  const { rows } = await sql<TableStats>`
    select n_live_tup::int, n_dead_tup::int, n_mod_since_analyze::int,
      (select reltuples from pg_class where oid = relid)::int as reltuples
    from pg_stat_user_tables where schemaname = current_schema() and relname = ${table}`.execute(db);
  return rows[0];
}

describeEachDatabase('database maintenance (PGlite runs no autovacuum)', (ctx) => {
  const db = () => ctx().db;
  const deps = () => ({ db: db(), dbKind: ctx().kind });
  /** A round on PGlite; on PostgreSQL, whose own autovacuum does this, the round must leave the database alone (null). */
  const roundOnPglite = async () => {
    const round = await maintainPglite(deps());
    if (ctx().kind === 'pglite') return round;
    expect(round).toEqual({ vacuumed: [], analyzed: [] });
    return null;
  };

  it('vacuums and analyses a table whose dead rows pass the threshold, then leaves it alone until they do again', async () => {
    // 400 rate-limit windows written and deleted, as the hourly cleanup leaves them.
    await sql`insert into rate_limit (key, window_start, count)
      select 'maintenance:' || g, now(), 1 from generate_series(1, 400) g`.execute(db());
    await sql`delete from rate_limit where key like 'maintenance:%'`.execute(db());
    const before = await tableStats(db(), 'rate_limit');
    // What PGlite keeps without the round (its pages may be pruned of a few as they are read).
    expect(before.n_dead_tup).toBeGreaterThan(200);
    const round = await roundOnPglite();
    if (!round) return;
    expect(round.vacuumed).toContain('rate_limit');
    const after = await tableStats(db(), 'rate_limit');
    expect(after.n_dead_tup).toBe(0);
    expect(after.n_mod_since_analyze).toBe(0);
    expect(await maintainPglite(deps())).toEqual({ vacuumed: [], analyzed: [] });
  });

  it('analyses a table that only grew, so the planner knows its rows', async () => {
    // 300 addresses holding places, as an on-sale leaves them.
    await sql`insert into hold_tally (address_hash, scope_id, held)
      select 'address-' || g, gen_random_uuid(), 1 from generate_series(1, 300) g`.execute(db());
    const before = await tableStats(db(), 'hold_tally');
    expect(before.n_mod_since_analyze).toBe(300);
    const round = await roundOnPglite();
    if (!round) return;
    expect(round).toEqual({ vacuumed: [], analyzed: ['hold_tally'] });
    const after = await tableStats(db(), 'hold_tally');
    expect(after.reltuples).toBe(300);
    expect(after.n_mod_since_analyze).toBe(0);
  });
});

import { sql } from 'kysely';
import type { Deps } from '../deps';
import { repeat } from './repeat';

export interface MaintenanceRound {
  /** Tables vacuumed (and analysed with it), and tables only analysed, this round. */
  vacuumed: string[];
  analyzed: string[];
}

/**
 * What autovacuum does on PostgreSQL, for PGlite, which runs none: 75 s after an update of 20,000 rows an embedded
 * database still had 20,000 dead rows and no planner statistics (issue 19's sixth session). Without it every hold,
 * sweep and cleanup leaves its dead rows for good, so tables and indexes only grow, and the planner plans with
 * whatever statistics the catalogue load left. Each round takes the tables past autovacuum's default thresholds: dead
 * rows above 50 + 20 % of the live ones are vacuumed (with ANALYZE), rows changed since the last analysis above 50 +
 * 10 % are analysed. PostgreSQL is left to its own autovacuum: nothing is done there.
 */
export async function maintainPglite(deps: Pick<Deps, 'db' | 'dbKind'>): Promise<MaintenanceRound> {
  const round: MaintenanceRound = { vacuumed: [], analyzed: [] };
  if (deps.dbKind !== 'pglite') return round;
  const { rows } = await sql<{ relname: string; vacuum: boolean; analyze: boolean }>`
    select relname, n_dead_tup > 50 + 0.2 * n_live_tup as vacuum, n_mod_since_analyze > 50 + 0.1 * n_live_tup as analyze
    from pg_stat_user_tables where schemaname = current_schema() order by relname`.execute(deps.db);
  for (const { relname, vacuum, analyze } of rows) {
    // One table a statement: PGlite has one session, and the requests queued behind each stay short.
    if (vacuum) {
      await sql`vacuum (analyze) ${sql.table(relname)}`.execute(deps.db);
      round.vacuumed.push(relname);
    } else if (analyze) {
      await sql`analyze ${sql.table(relname)}`.execute(deps.db);
      round.analyzed.push(relname);
    }
  }
  return round;
}

/** Runs a maintenance round every `intervalMs` (default 10 minutes) on PGlite; returns the function that stops it. */
export function startPgliteMaintenance(deps: Deps, intervalMs = 600_000): () => void {
  if (deps.dbKind !== 'pglite') return () => {};
  return repeat('database maintenance', intervalMs, () => maintainPglite(deps));
}

/**
 * The on-sale's yardstick (issue 19), started by the bench as a process of its own and never part of the product:
 * a Fastify server on the same database stack as the real one (kysely over pg with DATABASE_POOL_SIZE connections,
 * or the queued PGlite dialect in memory) whose one endpoint, POST /baseline, runs one guarded UPDATE of one row
 * (prepared and committed asynchronously, like a reservation) and nothing else. What a reservation costs beyond
 * that is what our code adds.
 *   PORT, DATABASE_URL (unset: PGlite in memory), DATABASE_POOL_SIZE
 */
import Fastify from 'fastify';
import { sql } from 'kysely';
import { openDatabase } from '../server/db';
import { PREPARED } from '../server/db/prepared';
import { LISTEN_BACKLOG, readConfig } from '../server/config';

async function main() {
  const config = readConfig();
  const handle = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize } : {});
  const db = handle.db;
  await sql`create table if not exists bench_baseline (id int primary key, capacity int not null, used int not null default 0)`.execute(db);
  await sql`insert into bench_baseline (id, capacity) values (1, 2000000000) on conflict (id) do update set used = 0`.execute(db);
  const app = Fastify({ logger: false });
  app.post('/baseline', async () => {
    // Prepared and committed as the reservation is (server/services/cart/fast-reserve.ts: a named statement,
    // synchronous_commit off for its own transaction), so the yardstick differs from a reservation by what our code
    // adds, not by parsing or the WAL flush.
    const { rows } = await sql<{ used: number }>`${sql.raw(PREPARED)}
      update bench_baseline set used = used + 1 where id = 1 and used + 1 <= capacity
      returning used, (select set_config('synchronous_commit', 'off', true)) as async_commit`.execute(db);
    return { taken: rows.length };
  });
  // Queued as the storefront's server queues connections (server/main.ts).
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1', backlog: LISTEN_BACKLOG });
  const stop = async () => {
    await app.close();
    await sql`drop table if exists bench_baseline`.execute(db);
    await handle.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

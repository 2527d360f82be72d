/**
 * `npx tsx bench/pool-sizes.ts`: which DATABASE_POOL_SIZE serves the on-sale best on this machine. For each size
 * (POOL_SIZES, default 5,10,20) one server on a scratch PostgreSQL, 200 buyers starting new carts for BENCH_SECONDS
 * (default 10) after WARMUP_SECONDS of the same load; prints tickets/s, p50 and p99 per size. The winner is
 * server/config.ts's DEFAULT_POOL_SIZE.
 */
import { openDatabase } from '../server/db';
import { createScratchDatabase, startServer } from '../tests/helpers/server-process';
import { EVENTS, WARMUP_SECONDS, benchTarget, drive, makeBenchSeller, openConnections, oversell, reserve } from './onsale';
import { ONSALE_BUYERS } from './onsale-run';

const PG_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SIZES = (process.env.POOL_SIZES ?? '5,10,20').split(',').map(Number);

async function main() {
  const seller = makeBenchSeller();
  try {
    for (const size of SIZES) {
      const pg = await createScratchDatabase(PG_ADMIN_URL, 'bench_pool');
      try {
        const server = await startServer(
          {
            NODE_ENV: 'production',
            MAX_CONNECTIONS: '4096',
            TRUST_PROXY: '127.0.0.1',
            DATABASE_URL: pg.url,
            DEMO_SELLER_DIR: seller.dir,
            DATABASE_POOL_SIZE: String(size),
          },
          180_000,
        );
        const handle = await openDatabase({ databaseUrl: pg.url, poolSize: 1 });
        try {
          const target = await benchTarget(handle.db, EVENTS.throughput);
          const connections = openConnections([server.baseUrl], ONSALE_BUYERS);
          const warm = await drive([server.baseUrl], ONSALE_BUYERS, reserve(target, 1), { seconds: WARMUP_SECONDS, connections });
          if (warm.errorCount > 0) throw new Error(`pool ${size} warm-up: ${warm.errorCount} errors ${JSON.stringify(warm.errors)}`);
          const r = await drive([server.baseUrl], ONSALE_BUYERS, reserve(target, 1), { seconds: SECONDS, connections });
          await connections.close();
          const check = await oversell(handle.db, target.sessionId);
          console.log(
            `pool ${size}: ${r.ticketsPerSecond} tickets/s · p50 ${r.p50Ms} ms · p99 ${r.p99Ms} ms · ${r.errorCount} errors · oversold ${check.oversold}`,
          );
        } finally {
          await handle.close();
          await server.stop();
        }
      } finally {
        await pg.drop();
      }
    }
  } finally {
    seller.remove();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

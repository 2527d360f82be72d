/**
 * The on-sale part of `npm run bench` (issue 19): on PostgreSQL and on PGlite, 200 buyers reserving for
 * BENCH_SECONDS against the baseline endpoint measured the same way; two server processes on one PostgreSQL selling
 * out a session; 2,000 buyers selling out a 10,000-place session. Oversold and errors must be 0 (run.ts exits 1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../server/db';
import { DEFAULT_POOL_SIZE } from '../server/config';
import { loadSellerFolder } from '../server/catalog/loader';
import { createScratchDatabase, startServer, type ServerProcess } from '../tests/helpers/server-process';
import {
  EVENTS,
  baselineRequest,
  benchTarget,
  drive,
  oversell,
  openConnections,
  reserve,
  startBaseline,
  WARMUP_SECONDS,
  type LoadResult,
  type Oversell,
  type Target,
} from './onsale';

export const ONSALE_BUYERS = 200;
export const SELLOUT_BUYERS = 2000;

export interface OnsaleRun {
  database: 'PostgreSQL' | 'PGlite';
  poolSize?: number;
  onsale: LoadResult;
  baseline: LoadResult;
  /** The uncounted load ahead of each (WARMUP_SECONDS): its errors fail the bench too. */
  warmups: LoadResult[];
  /** reservation requests/s as a share of the baseline's requests/s */
  percentOfBaseline: number;
  check: Oversell;
}
export interface OnsaleSummary {
  runs: OnsaleRun[];
  twoProcesses: LoadResult & { check: Oversell };
  sellout: LoadResult & { check: Oversell };
}

const serverEnv = { NODE_ENV: 'production', MAX_CONNECTIONS: '4096', TRUST_PROXY: '127.0.0.1' };

async function withServers<T>(env: Record<string, string>, count: number, use: (servers: ServerProcess[]) => Promise<T>): Promise<T> {
  const servers: ServerProcess[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await startServer({ ...serverEnv, ...env }, 180_000));
    return await use(servers);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** The uncounted WARMUP_SECONDS, then the measured run, on the same connections. */
async function warmThenMeasure(url: string, request: Parameters<typeof drive>[2], seconds: number): Promise<[LoadResult, LoadResult]> {
  const connections = openConnections([url], ONSALE_BUYERS);
  try {
    const warm = await drive([url], ONSALE_BUYERS, request, { seconds: WARMUP_SECONDS, connections });
    return [warm, await drive([url], ONSALE_BUYERS, request, { seconds, connections })];
  } finally {
    await connections.close();
  }
}

async function measureAgainstBaseline(database: OnsaleRun['database'], url: string, target: Target, seconds: number, databaseUrl?: string) {
  const [warmOnsale, onsale] = await warmThenMeasure(url, reserve(target, 1), seconds);
  const baseline = await startBaseline(databaseUrl);
  try {
    const [warmBaseline, base] = await warmThenMeasure(baseline.url, baselineRequest, seconds);
    return {
      database,
      onsale,
      baseline: base,
      warmups: [warmOnsale, warmBaseline],
      percentOfBaseline: Math.round((100 * onsale.requestsPerSecond) / base.requestsPerSecond),
    };
  } finally {
    await baseline.stop();
  }
}

export async function runOnsaleBench(
  pgAdminUrl: string,
  sellerDir: string,
  staticDir: string,
  seconds: number,
  log: (m: string) => void,
): Promise<OnsaleSummary> {
  const poolSize = Number(process.env.DATABASE_POOL_SIZE) || DEFAULT_POOL_SIZE;
  const runs: OnsaleRun[] = [];
  let twoProcesses: OnsaleSummary['twoProcesses'];
  let sellout: OnsaleSummary['sellout'];

  const pg = await createScratchDatabase(pgAdminUrl, 'bench_onsale');
  try {
    const env = { STATIC_DIR: staticDir, DATABASE_URL: pg.url, DEMO_SELLER_DIR: sellerDir };
    await withServers(env, 2, async ([a, b]) => {
      const handle = await openDatabase({ databaseUrl: pg.url, poolSize: 1 });
      try {
        const target = await benchTarget(handle.db, EVENTS.throughput);
        log(
          `on-sale PostgreSQL: ${ONSALE_BUYERS} buyers for ${WARMUP_SECONDS} s + ${seconds} s, then the baseline endpoint (pool ${poolSize})`,
        );
        const m = await measureAgainstBaseline('PostgreSQL', a.baseUrl, target, seconds, pg.url);
        runs.push({ ...m, poolSize, check: await oversell(handle.db, target.sessionId) });

        const two = await benchTarget(handle.db, EVENTS.sellout2);
        log(`two server processes on one PostgreSQL: ${ONSALE_BUYERS} buyers sell out a session`);
        const twoLoad = await drive([a.baseUrl, b.baseUrl], ONSALE_BUYERS, reserve(two, 2), { untilSoldOut: true, ticketsPerRequest: 2 });
        twoProcesses = { ...twoLoad, check: await oversell(handle.db, two.sessionId) };

        const one = await benchTarget(handle.db, EVENTS.sellout);
        log(`sell-out: ${SELLOUT_BUYERS} buyers, one session`);
        const sellLoad = await drive([a.baseUrl], SELLOUT_BUYERS, reserve(one, 2), { untilSoldOut: true, ticketsPerRequest: 2 });
        sellout = { ...sellLoad, check: await oversell(handle.db, one.sessionId) };
      } finally {
        await handle.close();
      }
    });
  } finally {
    await pg.drop();
  }

  // PGlite: the seller is loaded into the folder first, so the bench knows its ids; the server then opens it alone.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-onsale-pglite-'));
  try {
    let handle = await openDatabase({ dataDir });
    await migrateToLatest(handle.db);
    await loadSellerFolder(handle.db, sellerDir, { now: new Date() });
    const target = await benchTarget(handle.db, EVENTS.throughput);
    await handle.close();
    const m = await withServers({ STATIC_DIR: staticDir, DATA_DIR: dataDir }, 1, ([s]) => {
      log(`on-sale PGlite: ${ONSALE_BUYERS} buyers for ${WARMUP_SECONDS} s + ${seconds} s, then the baseline endpoint`);
      return measureAgainstBaseline('PGlite', s.baseUrl, target, seconds);
    });
    handle = await openDatabase({ dataDir });
    runs.push({ ...m, check: await oversell(handle.db, target.sessionId) });
    await handle.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { runs, twoProcesses: twoProcesses!, sellout: sellout! };
}

/** Every on-sale figure must come with nothing oversold and no errors. */
export function onsaleFailures(s: OnsaleSummary): string[] {
  const checks: Array<[string, LoadResult, Oversell]> = [
    ...s.runs.map((r): [string, LoadResult, Oversell] => [`on-sale ${r.database}`, r.onsale, r.check]),
    ['two processes', s.twoProcesses, s.twoProcesses.check],
    ['sell-out', s.sellout, s.sellout.check],
  ];
  return checks
    .flatMap(([name, load, check]) => [
      ...(check.oversold > 0 || !check.consistent
        ? [`${name}: oversold ${check.oversold} (used ${check.used}, live ${check.live}, capacity ${check.capacity})`]
        : []),
      ...(load.errorCount > 0 ? [`${name}: ${load.errorCount} errors ${JSON.stringify(load.errors)}`] : []),
    ])
    .concat(
      s.runs.flatMap((r) =>
        (r.warmups ?? [])
          .filter((w) => w.errorCount > 0)
          .map((w) => `on-sale ${r.database} warm-up: ${w.errorCount} errors ${JSON.stringify(w.errors)}`),
      ),
    );
}

/** Table rows: label, result, target, mark. */
export function onsaleRows(s: OnsaleSummary): string[][] {
  const mark = (ok: boolean) => (ok ? '✅' : '❌');
  const errs = (l: LoadResult) => `${l.errorCount} errors${l.errorCount ? ` (${JSON.stringify(l.errors)})` : ''}`;
  const rows: string[][] = [];
  for (const r of s.runs) {
    rows.push([
      `On-sale ${r.database}: ${r.onsale.clients} buyers, new cart + 1 ticket each${r.poolSize ? `, pool ${r.poolSize}` : ''}, after ${WARMUP_SECONDS} s of the same load`,
      `${r.onsale.ticketsPerSecond} tickets/s · p50 ${r.onsale.p50Ms} ms · p99 ${r.onsale.p99Ms} ms · oversold ${r.check.oversold} · ${errs(r.onsale)} · ${r.percentOfBaseline} % of baseline`,
      r.database === 'PostgreSQL' ? '≥ 1000 tickets/s, ≥ 50 % of baseline, oversold 0, 0 errors' : 'oversold 0, 0 errors',
      mark(
        r.check.oversold === 0 &&
          r.onsale.errorCount === 0 &&
          (r.warmups ?? []).every((w) => w.errorCount === 0) &&
          (r.database !== 'PostgreSQL' || (r.onsale.ticketsPerSecond >= 1000 && r.percentOfBaseline >= 50)),
      ),
    ]);
    rows.push([
      `Baseline ${r.database}: one guarded UPDATE over HTTP, ${r.baseline.clients} clients`,
      `${r.baseline.requestsPerSecond} req/s · p50 ${r.baseline.p50Ms} ms · p99 ${r.baseline.p99Ms} ms · ${errs(r.baseline)}`,
      '—',
      '',
    ]);
  }
  const t = s.twoProcesses;
  rows.push([
    `Two server processes on one PostgreSQL: ${t.clients} buyers × 2 tickets sell out ${t.check.capacity} places`,
    `${t.ticketsPerSecond} tickets/s · p50 ${t.p50Ms} ms · p99 ${t.p99Ms} ms · sold ${t.check.live}/${t.check.capacity} · oversold ${t.check.oversold} · ${errs(t)}`,
    'oversold 0, 0 errors',
    mark(t.check.oversold === 0 && t.check.consistent && t.errorCount === 0),
  ]);
  const o = s.sellout;
  rows.push([
    `Sell-out PostgreSQL: ${o.clients} buyers × 2 tickets, one session of ${o.check.capacity}`,
    `${o.ticketsPerSecond} tickets/s · p50 ${o.p50Ms} ms · p99 ${o.p99Ms} ms · sold ${o.check.live}/${o.check.capacity} in ${o.seconds} s · oversold ${o.check.oversold} · ${errs(o)}`,
    'oversold 0, 0 errors',
    mark(o.check.oversold === 0 && o.check.consistent && o.errorCount === 0),
  ]);
  return rows;
}

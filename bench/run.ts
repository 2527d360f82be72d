/**
 * `npm run bench` (not part of `npm test`): builds the storefront, starts the real server (tests/helpers/
 * server-process.ts) and measures the bundle of each route, Lighthouse, read load on PGlite and PostgreSQL, and
 * the on-sale contention on PostgreSQL. Prints one markdown table and writes bench/results.json.
 *   BENCH_SECONDS      seconds of each read-load run (default 10)
 *   TEST_DATABASE_URL  PostgreSQL server for the scratch databases (default postgres://postgres@127.0.0.1:5432/test)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createScratchDatabase, startServer, type ServerProcess } from '../tests/helpers/server-process';
import { budgetViolations, measureBundles, type Budget, type RouteBundle } from './bundle';
import budgetJson from './budget.json';
import { CATEGORIES, TARGETS, runLighthouse, type LighthousePage } from './lighthouse';
import { CONNECTIONS, readLoad, type ReadLoadRow } from './read-load';
import { bareLimit, makeBenchSeller, runOnsale, type BareResult, type OnsaleResult } from './onsale';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const budget = budgetJson as Budget;

const log = (msg: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mark = (ok: boolean) => (ok ? '✅' : '❌');

async function withServer<T>(env: Record<string, string>, use: (server: ServerProcess) => Promise<T>): Promise<T> {
  const server = await startServer({ NODE_ENV: 'production', ...env });
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

function table(r: {
  bundles: RouteBundle[]; lighthouse: LighthousePage[]; readLoad: ReadLoadRow[]; onsale: OnsaleResult; bare: BareResult; ratio: number;
}): string {
  const rows: string[][] = [];
  for (const b of r.bundles) {
    const rule = budget.routes[b.route] ?? {};
    const broken = budgetViolations([b], { routes: { [b.route]: rule } });
    const target = [rule.maxGzipJsKB !== undefined ? `JS ≤ ${rule.maxGzipJsKB} KB` : '', rule.forbid?.length ? `no ${rule.forbid.join(', ')}` : '']
      .filter(Boolean).join('; ') || '—';
    rows.push([`Bundle ${b.route} (\`${b.path.replace(/[0-9a-f-]{36}/, ':id')}\`)`,
      `JS ${kb(b.js.gzipBytes)} gz (${kb(b.js.rawBytes)} raw, ${b.js.count} files) · CSS ${kb(b.css.gzipBytes)} gz · ${b.markers.join(', ') || 'no form/card libs'}`,
      target, mark(broken.length === 0)]);
  }
  for (const p of r.lighthouse) {
    rows.push([`Lighthouse ${p.page} (mobile)`, CATEGORIES.map((c) => `${c} ${p.scores[c]}`).join(' · '),
      CATEGORIES.map((c) => `≥ ${TARGETS[c]}`).join(' · '), mark(CATEGORIES.every((c) => p.scores[c] >= TARGETS[c]))]);
  }
  for (const l of r.readLoad) {
    rows.push([`${l.database} ${l.endpoint}, ${CONNECTIONS} clients`,
      `${l.requestsPerSecond} req/s · p50 ${l.p50Ms} ms · p99 ${l.p99Ms} ms · ${l.non2xx} non-2xx · ${l.errors} errors`, '0 non-2xx, 0 errors',
      mark(l.non2xx === 0 && l.errors === 0)]);
  }
  const o = r.onsale;
  const errors = (m: Record<string, number>) => Object.entries(m).map(([k, v]) => `${v}× ${k}`).join(', ');
  rows.push([`On-sale PostgreSQL: ${o.buyers} buyers × 2 tickets, capacity ${o.capacity}`,
    `${o.reservationsPerSecond} reservations/s · p50 ${o.reserveP50Ms} ms · p99 ${o.reserveP99Ms} ms · ${o.reserved} reserved, ${o.soldOut} sold out${Object.keys(o.reserveErrors).length ? ` · errors: ${errors(o.reserveErrors)}` : ''}`,
    'every buyer answered', mark(o.reserved + o.soldOut === o.buyers)]);
  rows.push(['On-sale result', `${o.ticketsSold} tickets sold · oversold ${o.oversold} · session used ${o.sessionUsed}/${o.capacity} · ${o.checkoutsOk} checkouts ok${Object.keys(o.checkoutErrors).length ? ` · failed: ${errors(o.checkoutErrors)}` : ''}`,
    'oversold 0', mark(o.oversold === 0 && o.usedWithinCapacity && o.checkoutsOk === o.reserved)]);
  rows.push([`Bare PostgreSQL limit (${r.bare.statements} guarded UPDATEs on one row, ${r.bare.connections} connections = server pool)`,
    `${r.bare.statementsPerSecond} statements/s · our reservations/s = ${r.ratio.toFixed(3)} × bare`, '—', '']);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(['Benchmark', 'Result', 'Target', '']), line(['---', '---', '---', '---']), ...rows.map(line)].join('\n');
}

async function main() {
  const started = Date.now();
  const staticDir = mkdtempSync(path.join(os.tmpdir(), 'bench-dist-'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
  const seller = makeBenchSeller();
  try {
    // The production build, in a folder of its own: a rebuild of dist/ during the run cannot change what is measured.
    log('vite build');
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', staticDir, '--emptyOutDir'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('vite build failed');

    const pglite = await withServer({ STATIC_DIR: staticDir, DATA_DIR: dataDir }, async (server) => {
      log(`PGlite server on ${server.baseUrl}: bundles`);
      const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'] });
      let bundles: RouteBundle[];
      try { bundles = await measureBundles(browser, server.baseUrl); } finally { await browser.close(); }
      log('lighthouse');
      const lighthouse = await runLighthouse(server.baseUrl);
      log(`read load, ${SECONDS} s per endpoint`);
      return { bundles, lighthouse, readLoad: await readLoad(server.baseUrl, 'PGlite', SECONDS) };
    });

    const db = await createScratchDatabase(PG_ADMIN_URL, 'bench');
    const postgres = await (async () => {
      try {
        const run = await withServer({ STATIC_DIR: staticDir, DATABASE_URL: db.url, DEMO_SELLER_DIR: seller.dir }, async (server) => {
          log(`PostgreSQL server on ${server.baseUrl}: read load`);
          const rows = await readLoad(server.baseUrl, 'PostgreSQL', SECONDS);
          log('on-sale');
          return { rows, onsale: await runOnsale(server.baseUrl, db.url) };
        });
        log(`bare limit with ${run.onsale.serverConnections} connections`);
        return { ...run, bare: await bareLimit(db.url, run.onsale.serverConnections) };
      } finally {
        await db.drop();
      }
    })();
    const { bare } = postgres;

    const results = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown', memoryGB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version, platform: `${os.platform()} ${os.release()}`, loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100) },
      settings: { readSeconds: SECONDS, connections: CONNECTIONS, postgres: PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//') },
      bundles: pglite.bundles.map(({ assets, ...rest }) => ({ ...rest, assets: assets.map((a) => ({ ...a, url: new URL(a.url).pathname })) })),
      budgetViolations: budgetViolations(pglite.bundles, budget),
      lighthouse: pglite.lighthouse,
      readLoad: [...pglite.readLoad, ...postgres.rows],
      onsale: postgres.onsale,
      bare,
      onsaleToBareRatio: postgres.onsale.reservationsPerSecond / bare.statementsPerSecond,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
    const m = results.machine;
    console.log(`\n${m.cpus} × ${m.model}, Node ${m.node}, ${results.date.slice(0, 16).replace('T', ' ')} UTC, load average ${m.loadAverage.join(' ')}, run ${results.seconds} s\n`);
    console.log(table({ bundles: pglite.bundles, lighthouse: pglite.lighthouse, readLoad: results.readLoad, onsale: postgres.onsale, bare, ratio: results.onsaleToBareRatio }));
    for (const p of pglite.lighthouse) {
      if (p.failed.length) console.log(`\nLighthouse ${p.page}, audits not passed: ${p.failed.map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`).join(', ')}`);
    }
    if (results.budgetViolations.length) console.log(`\nBudget (bench/budget.json):\n- ${results.budgetViolations.join('\n- ')}`);
    console.log('\nbench/results.json written');
    // Selling beyond capacity is a bug, not a slow figure.
    if (postgres.onsale.oversold > 0 || !postgres.onsale.usedWithinCapacity) process.exitCode = 1;
  } finally {
    seller.remove();
    rmSync(staticDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

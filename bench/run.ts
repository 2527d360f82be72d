/**
 * `npm run bench` (not part of `npm test`): builds the storefront, starts the real server (tests/helpers/
 * server-process.ts) and measures the bundle of each route, Lighthouse, read load on PGlite and PostgreSQL, and
 * the on-sale contention on PostgreSQL. Prints one markdown table and writes bench/results.json.
 *   BENCH_ONLY         comma list of the parts to run: start, bundle, lighthouse, read, onsale (default all of them); the
 *                      parts not run keep their previous figures in bench/results.json ('measured' dates each part)
 *   BENCH_LH_RUNS      Lighthouse runs per page, the median is reported (default 3)
 *   BENCH_LH_THROTTLING  'devtools': Lighthouse throttles the load itself instead of simulating it (bench/lighthouse.ts)
 *   BENCH_SECONDS      seconds of each read-load run (default 10)
 *   TEST_DATABASE_URL  PostgreSQL server for the scratch databases (default postgres://postgres@127.0.0.1:5432/test)
 *   SERVER_CPU_PROF_DIR  a folder: each storefront server the bench starts writes a V8 CPU profile there when it stops
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { createScratchDatabase, startServer, type ServerProcess } from '../tests/helpers/server-process';
import { budgetViolations, measureBundles, type Budget, type RouteBundle } from './bundle';
import budgetJson from './budget.json';
import { CATEGORIES, TARGETS, lighthouseRuns, runLighthouse, type LighthousePage } from './lighthouse';
import { CONNECTIONS, calendarBesideOnsale, readLoad, type ReadLoadRow } from './read-load';
import { EVENTS, benchTarget, makeBenchSeller } from './onsale';
import { openDatabase } from '../server/db';
import { onsaleFailures, onsaleRows, runOnsaleBench, type OnsaleSummary } from './onsale-run';
import { START_TARGET_MS, measureStart, type StartResult } from './start';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const budget = budgetJson as Budget;
const RESULTS = new URL('./results.json', import.meta.url);

const PARTS = ['start', 'bundle', 'lighthouse', 'read', 'onsale'] as const;
type Part = (typeof PARTS)[number];

/** BENCH_ONLY: the parts to run (all when unset or empty); an unknown name is refused rather than skipped. */
function selectedParts(value = process.env.BENCH_ONLY): Set<Part> {
  const names = (value ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) return new Set(PARTS);
  const unknown = names.filter((n) => !(PARTS as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`BENCH_ONLY: unknown ${unknown.join(', ')} (choose from ${PARTS.join(', ')})`);
  return new Set(names as Part[]);
}

/** What one run measured; a part not run is absent. */
interface Measured {
  start?: StartResult;
  bundles?: RouteBundle[];
  lighthouse?: LighthousePage[];
  readLoad?: ReadLoadRow[];
  onsale?: OnsaleSummary;
}

const log = (msg: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mark = (ok: boolean) => (ok ? '✅' : '❌');

async function withServer<T>(env: Record<string, string>, use: (server: ServerProcess) => Promise<T>): Promise<T> {
  // The on-sale opens one connection per buyer (2,000 at once): above the default cap a production server keeps.
  const server = await startServer({ NODE_ENV: 'production', MAX_CONNECTIONS: '4096', ...env });
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

function table(r: Measured): string {
  const rows: string[][] = [];
  if (r.start) {
    rows.push([
      '`npm start`, built, existing data folder: spawn to first page',
      `median ${r.start.medianMs} ms · worst ${r.start.worstMs} ms (runs ${r.start.startsMs.join(', ')}) · first start on a new folder ${r.start.firstStartMs} ms`,
      `≤ ${START_TARGET_MS} ms`,
      mark(r.start.medianMs <= START_TARGET_MS),
    ]);
  }
  for (const b of r.bundles ?? []) {
    const rule = budget.routes[b.route] ?? {};
    const broken = budgetViolations([b], { routes: { [b.route]: rule } });
    const target =
      [rule.maxGzipJsKB !== undefined ? `JS ≤ ${rule.maxGzipJsKB} KB` : '', rule.forbid?.length ? `no ${rule.forbid.join(', ')}` : '']
        .filter(Boolean)
        .join('; ') || '—';
    rows.push([
      `Bundle ${b.route} (\`${b.path.replace(/[0-9a-f-]{36}/, ':id')}\`)`,
      `JS ${kb(b.js.gzipBytes)} gz (${kb(b.js.rawBytes)} raw, ${b.js.count} files) · CSS ${kb(b.css.gzipBytes)} gz · ${b.markers.join(', ') || 'no form/card libs'}`,
      target,
      mark(broken.length === 0),
    ]);
  }
  for (const p of r.lighthouse ?? []) {
    const runs =
      p.performanceRuns.length > 1 ? ` (median of ${p.performanceRuns.length}; performance runs ${p.performanceRuns.join(', ')})` : '';
    rows.push([
      `Lighthouse ${p.page} (mobile)`,
      CATEGORIES.map((c) => `${c} ${p.scores[c]}`).join(' · ') + runs,
      CATEGORIES.map((c) => `≥ ${TARGETS[c]}`).join(' · '),
      mark(CATEGORIES.every((c) => p.scores[c] >= TARGETS[c])),
    ]);
  }
  for (const l of r.readLoad ?? []) {
    const b = l.buyers;
    rows.push([
      `${l.database} ${l.endpoint}, ${CONNECTIONS} clients`,
      `${l.requestsPerSecond} req/s · p50 ${l.p50Ms} ms · p99 ${l.p99Ms} ms · ${l.non2xx} non-2xx · ${l.errors} errors` +
        (b ? ` · buyers ${b.ticketsPerSecond} tickets/s, p50 ${b.p50Ms} ms, ${b.errorCount} errors` : ''),
      '0 non-2xx, 0 errors',
      mark(l.non2xx === 0 && l.errors === 0 && !b?.errorCount),
    ]);
  }
  if (r.onsale) rows.push(...onsaleRows(r.onsale));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(['Benchmark', 'Result', 'Target', '']), line(['---', '---', '---', '---']), ...rows.map(line)].join('\n');
}

/** The parts of bench/results.json a run measured replace the old ones; the others stay, with their 'measured' date. */
function mergeResults(fresh: Record<string, unknown>, parts: Set<Part>): Record<string, unknown> {
  if (parts.size === PARTS.length || !existsSync(RESULTS)) return fresh;
  const old = JSON.parse(readFileSync(RESULTS, 'utf8')) as Record<string, unknown>;
  const oldDate = String(old.date ?? '');
  const oldMeasured = (old.measured ?? Object.fromEntries(PARTS.map((p) => [p, oldDate]))) as Record<string, string>;
  const keys: Record<Part, string[]> = {
    start: ['start'],
    bundle: ['bundles', 'budgetViolations'],
    lighthouse: ['lighthouse'],
    read: ['readLoad'],
    onsale: ['onsale'],
  };
  const kept = Object.fromEntries(
    PARTS.filter((p) => !parts.has(p)).flatMap((p) => keys[p].filter((k) => k in old).map((k) => [k, old[k]])),
  );
  return { ...fresh, ...kept, measured: { ...oldMeasured, ...(fresh.measured as Record<string, string>) } };
}

async function main() {
  const started = Date.now();
  const parts = selectedParts();
  const runs = parts.has('lighthouse') ? lighthouseRuns() : 0;
  const staticDir = mkdtempSync(path.join(os.tmpdir(), 'bench-dist-'));
  const ssrDir = mkdtempSync(path.join(os.tmpdir(), 'bench-ssr-'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
  const seller = makeBenchSeller();
  const r: Measured = {};
  try {
    if (parts.has('start')) {
      log('npm start, timed');
      r.start = await measureStart();
    }
    if (parts.has('bundle') || parts.has('lighthouse') || parts.has('read')) {
      // The production build, in a folder of its own: a rebuild of dist/ during the run cannot change what is measured.
      // The read load asks for the event's page too.
      log('vite build');
      const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', staticDir, '--emptyOutDir'], { stdio: 'inherit' });
      if (build.status !== 0) throw new Error('vite build failed');
      // The server's renderer of the same sources (the events listing arrives drawn).
      const ssr = spawnSync(
        'npx',
        ['vite', 'build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'warn', '--outDir', ssrDir, '--emptyOutDir'],
        {
          stdio: 'inherit',
        },
      );
      if (ssr.status !== 0) throw new Error('vite build --ssr failed');
    }

    if (parts.has('bundle') || parts.has('lighthouse') || parts.has('read')) {
      await withServer({ STATIC_DIR: staticDir, SSR_DIR: ssrDir, DATA_DIR: dataDir }, async (server) => {
        if (parts.has('bundle')) {
          log(`PGlite server on ${server.baseUrl}: bundles`);
          const browser = await chromium.launch({
            executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
            args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
          });
          try {
            r.bundles = await measureBundles(browser, server.baseUrl, staticDir);
          } finally {
            await browser.close();
          }
        }
        if (parts.has('lighthouse')) {
          log(`lighthouse on ${server.baseUrl}, ${runs} run(s) per page`);
          r.lighthouse = await runLighthouse(server.baseUrl, runs);
        }
        if (parts.has('read')) {
          log(`PGlite read load, ${SECONDS} s per endpoint`);
          r.readLoad = await readLoad(server.baseUrl, 'PGlite', SECONDS);
        }
      });
    }

    if (parts.has('read')) {
      const db = await createScratchDatabase(PG_ADMIN_URL, 'bench');
      try {
        // TRUST_PROXY: the buyers beside the last row's readers each come from an address of their own.
        const env = { STATIC_DIR: staticDir, SSR_DIR: ssrDir, DATABASE_URL: db.url, DEMO_SELLER_DIR: seller.dir, TRUST_PROXY: '127.0.0.1' };
        await withServer(env, async (server) => {
          log(`PostgreSQL server on ${server.baseUrl}: read load`);
          r.readLoad = [...(r.readLoad ?? []), ...(await readLoad(server.baseUrl, 'PostgreSQL', SECONDS))];
          const handle = await openDatabase({ databaseUrl: db.url, poolSize: 1 });
          try {
            const target = await benchTarget(handle.db, EVENTS.throughput);
            r.readLoad.push(await calendarBesideOnsale(server.baseUrl, 'PostgreSQL', SECONDS, target));
          } finally {
            await handle.close();
          }
        });
      } finally {
        await db.drop();
      }
    }

    if (parts.has('onsale')) {
      r.onsale = await runOnsaleBench(PG_ADMIN_URL, seller.dir, staticDir, SECONDS, log);
    }

    const now = new Date().toISOString();
    const violations = r.bundles ? budgetViolations(r.bundles, budget) : [];
    const results = mergeResults(
      {
        date: now,
        machine: {
          cpus: os.cpus().length,
          model: os.cpus()[0]?.model ?? 'unknown',
          memoryGB: Math.round(os.totalmem() / 2 ** 30),
          node: process.version,
          platform: `${os.platform()} ${os.release()}`,
          loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
        },
        settings: {
          readSeconds: SECONDS,
          connections: CONNECTIONS,
          lighthouseRuns: runs || undefined,
          postgres: PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//'),
        },
        measured: Object.fromEntries([...parts].map((p) => [p, now])),
        ...(r.bundles
          ? {
              bundles: r.bundles.map(({ assets, ...rest }) => ({
                ...rest,
                assets: assets.map((a) => ({ ...a, url: new URL(a.url).pathname })),
              })),
              budgetViolations: violations,
            }
          : {}),
        ...(r.start ? { start: r.start } : {}),
        ...(r.lighthouse ? { lighthouse: r.lighthouse } : {}),
        ...(r.readLoad ? { readLoad: r.readLoad } : {}),
        ...(r.onsale ? { onsale: r.onsale } : {}),
        seconds: Math.round((Date.now() - started) / 1000),
      },
      parts,
    );
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    const m = os.loadavg().map((n) => n.toFixed(2));
    console.log(
      `\n${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}, Node ${process.version}, ${now.slice(0, 16).replace('T', ' ')} UTC, load average ${m.join(' ')}, run ${results.seconds} s, parts: ${[...parts].join(', ')}\n`,
    );
    console.log(table(r));
    for (const p of r.lighthouse ?? []) {
      if (p.failed.length)
        console.log(
          `\nLighthouse ${p.page}, audits not passed: ${p.failed.map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`).join(', ')}`,
        );
      const times = (list: { url: string; ms: number }[]) => list.map((t) => `${t.url || 'unattributable'} ${t.ms} ms`).join(', ');
      console.log(
        `Lighthouse ${p.page}: FCP ${p.metrics.fcpMs} ms · LCP ${p.metrics.lcpMs} ms (${p.lcpElement ?? 'no element'}) · TBT ${p.metrics.tbtMs} ms · CLS ${p.metrics.cls}` +
          `\n  main-thread time by script: ${times(p.scripts)}\n  longest tasks: ${times(p.longTasks)}`,
      );
    }
    if (violations.length) console.log(`\nBudget (bench/budget.json):\n- ${violations.join('\n- ')}`);
    console.log(`\nbench/results.json written${parts.size < PARTS.length ? ' (the parts not run keep their previous figures)' : ''}`);
    // Selling beyond capacity, or a buyer refused by an error, is a bug, not a slow figure.
    const failures = [
      ...(r.onsale ? onsaleFailures(r.onsale) : []),
      ...(r.readLoad ?? []).flatMap((l) =>
        l.buyers?.errorCount ? [`${l.endpoint}: ${l.buyers.errorCount} errors ${JSON.stringify(l.buyers.errors)}`] : [],
      ),
    ];
    if (failures.length) {
      console.log(`\nOn-sale failed:\n- ${failures.join('\n- ')}`);
      process.exitCode = 1;
    }
  } finally {
    seller.remove();
    rmSync(staticDir, { recursive: true, force: true });
    rmSync(ssrDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

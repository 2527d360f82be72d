import fc from 'fast-check';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app';
import { readConfig } from '../server/config';
import { dropSchema, migrateToLatest, openDatabase, type DbKind } from '../server/db';
import { loadSellerFolder } from '../server/catalog/loader';
import { fuzzRoutes, requestArbitrary, send } from '../tests/helpers/fuzz';

/**
 * The contract fuzz at volume (issue 20, finding 4): requests generated from every operation's schemas
 * (tests/helpers/fuzz.ts), valid or with values made hostile, sent to the API on a fresh database holding the demo
 * seller; any 5xx is a failure. `npm test` runs a few thousand with the write check (tests/api/property.test.ts);
 * this runs FUZZ_REQUESTS (100,000) per database: `npx tsx bench/fuzz.ts` or `BENCH_ONLY=fuzz npm run bench`.
 */
export interface FuzzFigures {
  database: DbKind;
  requests: number;
  operations: number;
  seconds: number;
  status5xx: number;
  withoutCode: number;
  byStatus: Record<string, number>;
  firstFailures: string[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function runFuzz(opts: { databaseUrl?: string; requests: number; seed?: number }): Promise<FuzzFigures> {
  const schema = opts.databaseUrl ? `fuzz_${process.pid}_${Date.now()}` : undefined;
  const handle = await openDatabase(opts.databaseUrl ? { databaseUrl: opts.databaseUrl, schema } : {});
  try {
    await migrateToLatest(handle.db);
    await loadSellerFolder(handle.db, path.join(ROOT, 'sellers/demo'));
    const app = await buildApp({
      db: handle.db,
      dbKind: handle.kind,
      config: { ...readConfig({}), staticDir: '/nonexistent', readCacheMs: 0 },
      now: () => new Date(),
    });
    await app.ready();
    const routes = fuzzRoutes((app as unknown as { swagger(): any }).swagger());
    const ids = await Promise.all(
      (['event_template', 'event_session', 'ticket_type', 'ticket_group', 'seat'] as const).map((t) =>
        handle.db.selectFrom(t).select('id').limit(4).execute(),
      ),
    );
    const known = ids.flat().map((r) => r.id);
    const byStatus: Record<string, number> = {};
    const firstFailures: string[] = [];
    let status5xx = 0;
    let withoutCode = 0;
    let sent = 0;
    const perRoute = Math.ceil(opts.requests / routes.length);
    const started = performance.now();
    for (const [i, route] of routes.entries()) {
      const samples = fc.sample(
        requestArbitrary(route, () => known),
        { numRuns: perRoute, seed: (opts.seed ?? 20_261_124) + i },
      );
      for (const req of samples) {
        const r = await send(app, req, null, `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`);
        sent++;
        const key = String(r.status);
        byStatus[key] = (byStatus[key] ?? 0) + 1;
        if (r.status >= 500) status5xx++;
        if (r.status >= 400 && typeof r.code !== 'string') withoutCode++;
        if ((r.status >= 500 || (r.status >= 400 && typeof r.code !== 'string')) && firstFailures.length < 10) firstFailures.push(r.what);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    await app.close();
    return { database: handle.kind, requests: sent, operations: routes.length, seconds, status5xx, withoutCode, byStatus, firstFailures };
  } finally {
    await handle.close();
    if (opts.databaseUrl && schema) await dropSchema(opts.databaseUrl, schema);
  }
}

/** The figure for the README's table. */
export const fuzzRow = (f: FuzzFigures) =>
  `${f.requests} requests over ${f.operations} operations in ${Math.round(f.seconds)} s · 5xx ${f.status5xx} · refusals without _code ${f.withoutCode} · ${Object.entries(
    f.byStatus,
  )
    .sort((a, b) => b[1] - a[1])
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ')}`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const requests = Number(process.env.FUZZ_REQUESTS ?? 100_000);
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  let failed = false;
  for (const databaseUrl of [undefined, url]) {
    const f = await runFuzz({ databaseUrl, requests });
    console.log(`fuzz ${f.database}: ${fuzzRow(f)}`);
    for (const w of f.firstFailures) console.log(`  ${w}`);
    if (f.status5xx > 0 || f.withoutCode > 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

/**
 * Lighthouse (mobile preset: emulated phone, simulated throttling) on the production build: the events listing,
 * the timed admission event's detail and the checkout of a cart. Debian's chromium is started by Playwright as a
 * persistent (default) browser context with a debugging port, so the cart reserved through the API puts its owner
 * cookie where Lighthouse's tab finds it. Scores vary from run to run: each page is audited `runs` times
 * (BENCH_LH_RUNS, default 3) and the median is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import lighthouse from 'lighthouse';
import { firstSessionTomorrow, reserveThroughApi } from '../tests/e2e/helpers';
import { freePort } from '../tests/helpers/server-process';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
export type Category = (typeof CATEGORIES)[number];
/** The targets, as Lighthouse shows scores (0-100). */
export const TARGETS: Record<Category, number> = { performance: 95, accessibility: 100, 'best-practices': 100 };

export interface FailedAudit {
  id: string;
  category: Category;
  score: number;
  title: string;
  displayValue?: string;
  /** The first few items Lighthouse names (reasons, URLs, elements), so the report says what to fix. */
  items?: string[];
}
export interface Metrics {
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}
/** A script's main-thread time (Lighthouse 'bootup-time'), or one long task ('long-tasks'), in ms. */
export interface ScriptTime {
  url: string;
  ms: number;
}
export interface LighthousePage {
  page: string;
  url: string;
  /** Median of each category over the runs. */
  scores: Record<Category, number>;
  /** Audits of the three categories that Lighthouse does not pass (score under 0.9), from the median run. */
  failed: FailedAudit[];
  /** First Contentful Paint, Largest Contentful Paint, Total Blocking Time (ms), Cumulative Layout Shift: medians. */
  metrics: Metrics;
  /** The performance score of every run, in run order; the median run is the one `failed` and `scripts` come from. */
  performanceRuns: number[];
  /** Median run: the Largest Contentful Paint element (a CSS selector), the scripts with the most main-thread
   *  time, and the longest main-thread tasks. */
  lcpElement: string | null;
  scripts: ScriptTime[];
  longTasks: ScriptTime[];
}

const CHROME_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Short labels of an audit's detail items: a reason, a URL path or an element's snippet. */
function itemsOf(details: unknown): string[] {
  const items = (details as { items?: unknown } | undefined)?.items;
  // Insight audits keep an object (not a list) there.
  if (!Array.isArray(items)) return [];
  return (items as Record<string, any>[])
    .slice(0, 5)
    .map((item) => {
      const label = item.reason ?? item.url ?? item.node?.snippet ?? item.label ?? item.source?.url ?? '';
      return typeof label === 'string' ? label.replace(/^https?:\/\/[^/]+/, '').slice(0, 160) : '';
    })
    .filter(Boolean);
}

/** Lighthouse's URL column (a URL, or 'Unattributable'/'Other') without the origin, and a duration in ms. */
function timesOf(details: unknown, key: 'total' | 'duration', count: number): ScriptTime[] {
  const items = (details as { items?: Record<string, any>[] } | undefined)?.items ?? [];
  return [...items]
    .sort((a, b) => (b[key] ?? 0) - (a[key] ?? 0))
    .slice(0, count)
    .map((item) => ({ url: String(item.url ?? '').replace(/^https?:\/\/[^/]+/, ''), ms: Math.round(item[key] ?? 0) }));
}

/** The LCP element audit holds a list of tables; the first row of the first names the element. */
function lcpElementOf(details: unknown): string | null {
  const node = (details as { items?: { items?: { node?: { selector?: string } }[] }[] } | undefined)?.items?.[0]?.items?.[0]?.node;
  return node?.selector ?? null;
}

type Run = Omit<LighthousePage, 'performanceRuns'>;

/** A run Lighthouse could not finish: `code` is its runtime error code (NO_NAVSTART, NO_FCP, ...). */
export class LighthouseRunError extends Error {
  constructor(
    url: string,
    readonly code: string,
    message: string,
  ) {
    super(`lighthouse ${url}: ${code} ${message}`);
  }
}

/** The runtime errors Lighthouse words 'Something went wrong with recording the trace over your page load. Please run
 *  Lighthouse again': the harness's trace, not the page (a page that never paints is NO_FCP, and is not retried). */
const TRACE_RECORDING_ERRORS = new Set(['NO_TRACING_STARTED', 'NO_RESOURCE_REQUEST', 'NO_NAVSTART', 'NO_DCL', 'NO_FMP']);
/** How many times one run is tried when its trace went wrong (NO_NAVSTART stopped 2 of the 15 runs of the whole
 *  Lighthouse part made on one machine on 2026-11-27). */
const RUN_ATTEMPTS = 3;

/** `attempt()` again (up to RUN_ATTEMPTS in all) while it fails with a trace-recording error; any other error at once. */
export async function retryingTraceErrors<T>(attempt: () => Promise<T>, label: string, log = console.error): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof LighthouseRunError && TRACE_RECORDING_ERRORS.has(error.code)) || n === RUN_ATTEMPTS) throw error;
      log(`${error.message}: ${label} tried again (attempt ${n + 1} of ${RUN_ATTEMPTS})`);
    }
  }
}

async function audit(url: string, port: number, keepStorage: boolean, name: string): Promise<Run> {
  const run = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    disableStorageReset: keepStorage,
    // BENCH_LH_THROTTLING=devtools: the network and CPU throttled while the page loads, instead of the default
    // simulation that replays an unthrottled load (README, "The events listing is drawn by the server").
    ...(process.env.BENCH_LH_THROTTLING === 'devtools' ? { throttlingMethod: 'devtools' as const } : {}),
  });
  if (!run) throw new Error(`lighthouse returned nothing for ${url}`);
  const { lhr } = run;
  if (lhr.runtimeError) throw new LighthouseRunError(url, lhr.runtimeError.code, lhr.runtimeError.message);
  // BENCH_LH_DIR keeps every run's whole report (open it in Lighthouse's viewer, or read its audits' details).
  if (process.env.BENCH_LH_DIR) {
    mkdirSync(process.env.BENCH_LH_DIR, { recursive: true });
    writeFileSync(path.join(process.env.BENCH_LH_DIR, `${name}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  const scores = {} as Record<Category, number>;
  const failed: FailedAudit[] = [];
  for (const category of CATEGORIES) {
    const c = lhr.categories[category];
    scores[category] = Math.round((c.score ?? 0) * 100);
    for (const ref of c.auditRefs) {
      const a = lhr.audits[ref.id];
      if (a.score === null || a.score >= 0.9 || ['manual', 'notApplicable', 'informative'].includes(a.scoreDisplayMode)) continue;
      // Playwright starts chromium with the back/forward cache switched off: that audit would only describe the harness.
      if (a.id === 'bf-cache') continue;
      const items = itemsOf(a.details);
      failed.push({
        id: a.id,
        category,
        score: a.score,
        title: a.title,
        ...(a.displayValue ? { displayValue: a.displayValue } : {}),
        ...(items.length ? { items } : {}),
      });
    }
  }
  const num = (id: string) =>
    Math.round((lhr.audits[id]?.numericValue ?? NaN) * (id === 'cumulative-layout-shift' ? 1000 : 1)) /
    (id === 'cumulative-layout-shift' ? 1000 : 1);
  return {
    page: name,
    url: new URL(url).pathname,
    scores,
    failed,
    metrics: {
      fcpMs: num('first-contentful-paint'),
      lcpMs: num('largest-contentful-paint'),
      tbtMs: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
    },
    lcpElement: lcpElementOf(lhr.audits['largest-contentful-paint-element']?.details),
    scripts: timesOf(lhr.audits['bootup-time']?.details, 'total', 3),
    longTasks: timesOf(lhr.audits['long-tasks']?.details, 'duration', 5),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Audits `url` `runs` times (`before` runs ahead of each, e.g. to empty the HTTP cache) and keeps the medians. */
async function auditMedian(runs: number, before: () => Promise<unknown>, ...args: Parameters<typeof audit>): Promise<LighthousePage> {
  const all: Run[] = [];
  for (let i = 0; i < runs; i++) {
    all.push(
      await retryingTraceErrors(
        async () => {
          await before();
          return audit(...args);
        },
        `run ${i + 1}`,
      ),
    );
  }
  const performanceRuns = all.map((r) => r.scores.performance);
  // The run whose performance score is the median (the lower middle one for an even count) describes the audits.
  const typical = [...all].sort((a, b) => a.scores.performance - b.scores.performance)[(all.length - 1) >> 1];
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(median(all.map((r) => r.scores[c])))])) as Record<
    Category,
    number
  >;
  const metric = (key: keyof Metrics) => median(all.map((r) => r.metrics[key]));
  return {
    ...typical,
    scores,
    performanceRuns,
    metrics: {
      fcpMs: Math.round(metric('fcpMs')),
      lcpMs: Math.round(metric('lcpMs')),
      tbtMs: Math.round(metric('tbtMs')),
      cls: Math.round(metric('cls') * 1000) / 1000,
    },
  };
}

/** BENCH_LH_RUNS: how many times each page is audited (default 3). */
export function lighthouseRuns(value = process.env.BENCH_LH_RUNS): number {
  const runs = Number(value || 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`BENCH_LH_RUNS must be a whole number from 1, not '${value}'`);
  return runs;
}

/** Runs Lighthouse `runs` times on each of /events, the admission event and /checkout/{cart id} of the server at
 *  `baseUrl`, and reports the medians. */
export async function runLighthouse(baseUrl: string, runs = lighthouseRuns()): Promise<LighthousePage[]> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'bench-chrome-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    baseURL: baseUrl,
    args: [...CHROME_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const session = await firstSessionTomorrow(page.request);
    // The listing and the detail first, on a browser with no cart (Lighthouse resets the origin's storage and cache).
    const nothing = async () => {};
    const pages = [
      await auditMedian(runs, nothing, `${baseUrl}/events`, port, false, 'events'),
      await auditMedian(runs, nothing, `${baseUrl}/events/${session.eventId}`, port, false, 'event-detail'),
    ];
    // The checkout needs the cart's owner cookie, so Lighthouse keeps the storage; the HTTP cache is emptied here
    // before each run. One cart serves every run (the demo holds it 15 minutes).
    const cartId = await reserveThroughApi(page, 'demo', session.sessionId, [session.types.Adult], {
      [session.groups.Adult]: { zip_code: '10024' },
    });
    const cdp = await context.newCDPSession(page);
    pages.push(
      await auditMedian(runs, () => cdp.send('Network.clearBrowserCache'), `${baseUrl}/checkout/${cartId}`, port, true, 'checkout'),
    );
    return pages;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

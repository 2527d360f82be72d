/**
 * Lighthouse (mobile preset: emulated phone, simulated throttling) on the production build: the events listing,
 * the timed admission event's detail and the checkout of a cart. Debian's chromium is started by Playwright as a
 * persistent (default) browser context with a debugging port, so the cart reserved through the API puts its owner
 * cookie where Lighthouse's tab finds it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
  id: string; category: Category; score: number; title: string; displayValue?: string;
  /** The first few items Lighthouse names (reasons, URLs, elements), so the report says what to fix. */
  items?: string[];
}
export interface LighthousePage {
  page: string;
  url: string;
  scores: Record<Category, number>;
  /** Audits of the three categories that Lighthouse does not pass (score under 0.9). */
  failed: FailedAudit[];
  /** First Contentful Paint, Largest Contentful Paint, Total Blocking Time (ms), Cumulative Layout Shift. */
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number };
}

const CHROME_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--no-first-run', '--disable-sync'];

/** Short labels of an audit's detail items: a reason, a URL path or an element's snippet. */
function itemsOf(details: unknown): string[] {
  const items = (details as { items?: Record<string, any>[] } | undefined)?.items ?? [];
  return items.slice(0, 5).map((item) => {
    const label = item.reason ?? item.url ?? item.node?.snippet ?? item.label ?? item.source?.url ?? '';
    return typeof label === 'string' ? label.replace(/^https?:\/\/[^/]+/, '').slice(0, 160) : '';
  }).filter(Boolean);
}

async function audit(url: string, port: number, keepStorage: boolean, name: string): Promise<LighthousePage> {
  const run = await lighthouse(url, {
    port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], disableStorageReset: keepStorage,
  });
  if (!run) throw new Error(`lighthouse returned nothing for ${url}`);
  const { lhr } = run;
  if (lhr.runtimeError) throw new Error(`lighthouse ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
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
      failed.push({ id: a.id, category, score: a.score, title: a.title, ...(a.displayValue ? { displayValue: a.displayValue } : {}),
        ...(items.length ? { items } : {}) });
    }
  }
  const num = (id: string) => Math.round((lhr.audits[id]?.numericValue ?? NaN) * (id === 'cumulative-layout-shift' ? 1000 : 1))
    / (id === 'cumulative-layout-shift' ? 1000 : 1);
  return {
    page: name, url: new URL(url).pathname, scores, failed,
    metrics: { fcpMs: num('first-contentful-paint'), lcpMs: num('largest-contentful-paint'), tbtMs: num('total-blocking-time'), cls: num('cumulative-layout-shift') },
  };
}

/** Runs Lighthouse on /events, the admission event and /checkout/{cart id} of the server at `baseUrl`. */
export async function runLighthouse(baseUrl: string): Promise<LighthousePage[]> {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'bench-chrome-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, baseURL: baseUrl,
    args: [...CHROME_ARGS, `--remote-debugging-port=${port}`],
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    const session = await firstSessionTomorrow(page.request);
    // The listing and the detail first, on a browser with no cart (Lighthouse resets the origin's storage and cache).
    const pages = [
      await audit(`${baseUrl}/events`, port, false, 'events'),
      await audit(`${baseUrl}/events/${session.eventId}`, port, false, 'event-detail'),
    ];
    // The checkout needs the cart's owner cookie, so Lighthouse keeps the storage; the HTTP cache is emptied here.
    const cartId = await reserveThroughApi(page, 'demo', session.sessionId, [session.types.Adult],
      { [session.groups.Adult]: { zip_code: '10024' } });
    await (await context.newCDPSession(page)).send('Network.clearBrowserCache');
    pages.push(await audit(`${baseUrl}/checkout/${cartId}`, port, true, 'checkout'));
    return pages;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

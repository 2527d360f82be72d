/**
 * What each route of the production build loads first, measured in a real browser against the running server:
 * every script and stylesheet response until the network is idle, its raw size and its gzip size (zlib level 9
 * on the body, whatever the server sent on the wire), and which libraries each chunk holds (from its source map)
 * so the budget can forbid @rjsf / ajv / the card provider where a screen has no use for them.
 * Used by `npm run bench` (bench/run.ts) and by the budget test (tests/e2e/budget.spec.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page, Request, Response } from '@playwright/test';
import { firstSessionTomorrow, reserveThroughApi } from '../tests/e2e/helpers';

export type Marker = '@rjsf' | 'ajv' | 'stripe' | 'd3-zoom' | 'downshift' | 'altcha' | 'markdown-to-jsx';
export const ROUTES = ['events', 'event-detail', 'checkout', 'account'] as const;
export type RouteName = (typeof ROUTES)[number];

export interface Asset {
  url: string;
  kind: 'js' | 'css';
  rawBytes: number;
  gzipBytes: number;
  markers: Marker[];
  /** For our own scripts: whether a source map told what the chunk holds. */
  mapped?: boolean;
}
export interface RouteBundle {
  route: RouteName;
  path: string;
  js: { count: number; rawBytes: number; gzipBytes: number };
  css: { count: number; rawBytes: number; gzipBytes: number };
  /** Libraries found in the route's chunks, and 'stripe' for any request to *.stripe.com. */
  markers: Marker[];
  assets: Asset[];
  /** Chunks only the late modules load (lateOnlyFiles), seen during the measure and left out of its sums. */
  late: string[];
}

export interface Budget {
  routes: Partial<Record<RouteName, { maxGzipJsKB?: number; forbid?: Marker[] }>>;
}

/** The demo member of sellers/demo (the account route is measured logged in, as a member sees it). */
const MEMBER = { username: 'member@example.com', password: 'MuseumDemo2026!' };
const ECOMM = { 'X-Ticketing-App': 'ecomm' };

/** Source-map paths that give a library away. */
const LIBRARY: Record<Exclude<Marker, 'stripe'>, RegExp> = {
  '@rjsf': /node_modules\/@rjsf\//,
  ajv: /node_modules\/ajv[^/]*\//,
  // the seat map's pan and zoom: only events that sell seats
  'd3-zoom': /node_modules\/d3-zoom\//,
  // the checkout's address lookup: only when the seller offers it
  downshift: /node_modules\/downshift\//,
  // the guest checkout's captcha widget (issue 14): only on a checkout whose seller asks for a captcha
  altcha: /node_modules\/altcha\//,
  // @rjsf's markdown, for uiSchemas that ask for it (none of ours): only when a form draws some (src/forms/lazy-markdown.tsx)
  'markdown-to-jsx': /node_modules\/markdown-to-jsx\//,
};
const STRIPE_SOURCE = /node_modules\/@stripe\//;
const isStripeHost = (url: string) => /(^|\.)stripe\.com$/.test(new URL(url).hostname);

/** Libraries in a chunk, from the source map its `sourceMappingURL` comment names (null: the chunk has none). */
async function chunkMarkers(page: Page, url: string, body: Buffer, cache: Map<string, Marker[] | null>): Promise<Marker[] | null> {
  if (cache.has(url)) return cache.get(url)!;
  let markers: Marker[] | null = null;
  const ref = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(body.subarray(-500).toString('utf8'))?.[1];
  if (ref) {
    markers = [];
    const mapUrl = new URL(ref, url).toString();
    const map = await page.request.get(mapUrl);
    if (!map.ok() || !(map.headers()['content-type'] ?? '').includes('json')) {
      throw new Error(`no source map at ${mapUrl} (HTTP ${map.status()}): was the build changed while the server ran?`);
    }
    const sources: string[] = (await map.json()).sources ?? [];
    for (const [marker, re] of Object.entries(LIBRARY) as [Marker, RegExp][]) if (sources.some((s) => re.test(s))) markers.push(marker);
    if (sources.some((s) => STRIPE_SOURCE.test(s))) markers.push('stripe');
  }
  cache.set(url, markers);
  return markers;
}

/** The modules main.tsx loads on a timer once the page is drawn (the flags poller, analytics): not the first load. */
const LATE_ENTRIES = ['src/app/late-start.ts'];

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * The build's files (as `assets/x-hash.js`) that only the late modules load, from Vite's manifest in `staticDir`: what
 * the late entries reach, less what the page's entry reaches without passing through them. A slow machine draws the
 * page after the late timer has fired; these files are then seen before the network is idle, and leaving them out by
 * name (not by when they came) keeps the measure the same on any machine.
 */
export function lateOnlyFiles(staticDir: string): Set<string> {
  const manifest = JSON.parse(readFileSync(path.join(staticDir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk & { isEntry?: boolean }
  >;
  const reach = (roots: string[], skip: Set<string>) => {
    const keys = new Set<string>();
    const walk = (key: string) => {
      if (keys.has(key) || skip.has(key) || !manifest[key]) return;
      keys.add(key);
      for (const next of [...(manifest[key].imports ?? []), ...(manifest[key].dynamicImports ?? [])]) walk(next);
    };
    roots.forEach(walk);
    return new Set([...keys].flatMap((key) => [manifest[key].file, ...(manifest[key].css ?? [])]));
  };
  const lateEntries = LATE_ENTRIES.filter((key) => manifest[key]);
  if (lateEntries.length !== LATE_ENTRIES.length)
    throw new Error(`the build has no chunk for ${LATE_ENTRIES.join(', ')}: update LATE_ENTRIES`);
  const page = reach(
    Object.keys(manifest).filter((key) => manifest[key].isEntry),
    new Set(lateEntries),
  );
  return new Set([...reach(lateEntries, new Set())].filter((file) => !page.has(file)));
}

/** Opens `path` in `page` (of a new context) and measures what it loads until the network is idle, less `lateOnly`. */
async function measureRoute(
  page: Page,
  route: RouteName,
  path: string,
  mapCache: Map<string, Marker[] | null>,
  lateOnly: Set<string>,
): Promise<RouteBundle> {
  const bodies: Promise<{ asset: Asset; body: Buffer } | null>[] = [];
  let stripeRequest = false;
  const onRequest = (request: Request) => {
    if (/^https?:/.test(request.url()) && isStripeHost(request.url())) stripeRequest = true;
  };
  const onResponse = (response: Response) => {
    const type = response.request().resourceType();
    const contentType = response.headers()['content-type'] ?? '';
    const kind =
      type === 'stylesheet' || contentType.includes('text/css')
        ? 'css'
        : type === 'script' || contentType.includes('javascript')
          ? 'js'
          : null;
    if (!kind || response.status() !== 200) return;
    bodies.push(
      response.body().then(
        (body) => ({
          body,
          asset: { url: response.url(), kind, rawBytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length, markers: [] },
        }),
        () => null,
      ),
    );
  };
  page.on('request', onRequest);
  page.on('response', onResponse);
  try {
    await page.goto(path, { waitUntil: 'networkidle' });
  } finally {
    page.off('request', onRequest);
    page.off('response', onResponse);
  }
  const seen = new Set<string>();
  const assets: Asset[] = [];
  const late: string[] = [];
  for (const loaded of await Promise.all(bodies)) {
    if (!loaded || seen.has(loaded.asset.url)) continue;
    const { asset, body } = loaded;
    seen.add(asset.url);
    const { origin, pathname } = new URL(asset.url);
    if (origin === new URL(page.url()).origin && lateOnly.has(pathname.replace(/^\//, ''))) {
      late.push(pathname);
      continue;
    }
    if (asset.kind === 'js' && new URL(asset.url).origin === new URL(page.url()).origin) {
      const markers = await chunkMarkers(page, asset.url, body, mapCache);
      asset.markers = markers ?? [];
      asset.mapped = markers !== null;
    }
    assets.push(asset);
  }
  const sum = (kind: Asset['kind']) => {
    const of = assets.filter((a) => a.kind === kind);
    return { count: of.length, rawBytes: of.reduce((n, a) => n + a.rawBytes, 0), gzipBytes: of.reduce((n, a) => n + a.gzipBytes, 0) };
  };
  const markers = new Set(assets.flatMap((a) => a.markers));
  if (stripeRequest) markers.add('stripe');
  return { route, path, js: sum('js'), css: sum('css'), markers: [...markers].sort(), assets, late };
}

/**
 * Measures the four routes of the demo seller on the server at `baseUrl` (serving the build in `staticDir`): the events
 * listing, the timed admission event's detail, the checkout of a cart reserved first through the API, and the account
 * area logged in as the demo member. Each route is a first visit: a new browser context with an empty cache.
 */
export async function measureBundles(browser: Browser, baseUrl: string, staticDir: string): Promise<RouteBundle[]> {
  const mapCache = new Map<string, Marker[] | null>();
  const lateOnly = lateOnlyFiles(staticDir);
  const visit = async (route: RouteName, prepare: (page: Page) => Promise<string>) => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      return await measureRoute(page, route, await prepare(page), mapCache, lateOnly);
    } finally {
      await context.close();
    }
  };
  const results: RouteBundle[] = [];
  results.push(await visit('events', async () => '/events'));
  results.push(await visit('event-detail', async (page) => `/events/${(await firstSessionTomorrow(page.request)).eventId}`));
  results.push(
    await visit('checkout', async (page) => {
      const session = await firstSessionTomorrow(page.request);
      const cartId = await reserveThroughApi(page, 'demo', session.sessionId, [session.types.Adult], {
        [session.groups.Adult]: { zip_code: '10024' },
      });
      return `/checkout/${cartId}`;
    }),
  );
  results.push(
    await visit('account', async (page) => {
      const login = await page.request.post('/api/login?_seller=demo', { headers: ECOMM, data: MEMBER });
      if (!login.ok()) throw new Error(`demo member login: HTTP ${login.status()} ${await login.text()}`);
      return '/my';
    }),
  );
  return results;
}

const UNMAPPED_MAX_BYTES = 4096;

/** Every way the measured routes break the budget, as readable lines (empty when within budget). */
export function budgetViolations(results: RouteBundle[], budget: Budget): string[] {
  const out: string[] = [];
  for (const [route, rule] of Object.entries(budget.routes) as [RouteName, NonNullable<Budget['routes'][RouteName]>][]) {
    const r = results.find((x) => x.route === route);
    if (!r) {
      out.push(`${route}: not measured`);
      continue;
    }
    const kb = r.js.gzipBytes / 1024;
    if (rule.maxGzipJsKB !== undefined && kb > rule.maxGzipJsKB) {
      out.push(`${route} (${r.path}): ${kb.toFixed(1)} KB of gzipped JavaScript, budget ${rule.maxGzipJsKB} KB`);
    }
    // A chunk without a source map could hold anything: only the build's tiny runtime chunk goes without, and the
    // validators the server compiles from our own schemas (GET form_validator/{key}), which hold no library.
    const unmapped = r.assets.filter(
      (a) => a.mapped === false && a.rawBytes > UNMAPPED_MAX_BYTES && !new URL(a.url).pathname.startsWith('/api/form_validator/'),
    );
    if (rule.forbid?.length && unmapped.length) {
      out.push(`${route} (${r.path}): no source map for ${unmapped.map((a) => new URL(a.url).pathname).join(', ')}`);
    }
    for (const marker of rule.forbid ?? []) {
      if (!r.markers.includes(marker)) continue;
      const where = r.assets.filter((a) => a.markers.includes(marker)).map((a) => new URL(a.url).pathname);
      out.push(`${route} (${r.path}) loads ${marker}${where.length ? ` in ${where.join(', ')}` : ' (request to stripe.com)'}`);
    }
  }
  return out;
}

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { TicketGroupRow, TicketTypeRow } from '../../src/contract/catalogue';
import {
  availableEventsRead,
  BOOT_DATA_ID,
  calendarRead,
  cartRead,
  configRead,
  eventRead,
  readKey,
  readUrl,
  reservableEventRead,
  type BootData,
  type Read,
} from '../../src/contract/first-reads';
import { COVER_SIZES, coverImageId, coverSources, logoSrc } from '../../src/domain/page-images';
import {
  candidateSellerSlug,
  homeRedirectTarget,
  landingScreenOf,
  stripSellerPrefix,
  drawnScreenOf,
  stripTrailingSlash,
  type LandingScreen,
} from '../../src/domain/paths';
import type { DrawnScreen, DrawnVisitor, ServerRenderer } from '../../src/contract/drawn-screen';
import { readMarker } from '../../src/domain/session';
import { resolveLayout, type ScreenLayoutConfig } from '../../src/domain/layout';
import { datedGroupIdsOf } from '../../src/domain/reservable-groups';

const API_BASE = '/api';
const CACHED_API_BASE = '/cached_api';

/** JSON that can sit inside a <script type="application/json"> element: nothing in it can close the element or
 *  open a comment, whatever a seller wrote in an event's name or description. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Text for an HTML attribute value or element content. */
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Options {
  /** The built index.html (read again when a new build replaces it). */
  template: () => string;
  defaultSeller: string;
  /** The boot screen's status text (locales/en/translation.json app.loading), the page's first paint. */
  loadingText: string;
  /** The built chunks a landing screen loads first (readScreenChunks); none when unknown. */
  screenChunks?: (screen: LandingScreen) => string[];
  /** The stylesheets of those chunks (readScreenChunks): a page the server drew links them, so the screen is drawn
   *  with its own styles rather than restyled when its script arrives. */
  screenStyles?: (screen: LandingScreen) => string[];
  /** The server's renderer (src/entry-server.tsx, built into dist-ssr/): the screen drawn from the page's reads, for
   *  the screens it draws (drawnScreenOf); none: every page carries the loading status. */
  drawScreen?: (url: string, data: BootData, visitor: DrawnVisitor) => Promise<DrawnScreen | null>;
}

interface ConfigBody {
  seller?: { _data?: unknown[] };
  config?: { _data?: Array<{ key: string; value: unknown }> };
}
interface StorefrontValue {
  web?: { logo?: unknown };
  layout?: Record<string, ScreenLayoutConfig | undefined>;
  membership_presell?: boolean;
  flags?: { membership_presell?: boolean };
  admission_event_id?: string;
}
interface ReservableBody {
  ticket_group?: { _data?: TicketGroupRow[] };
  ticket_type?: { _data?: TicketTypeRow[] };
}
interface EventBody {
  event_template?: { _data?: Array<{ meta?: { image_cover?: string | null; image_profile?: string | null } }> };
}

/**
 * Whether the page for `url` is the same for every visitor, so the read cache may keep it: any but a checkout's
 * (which carries its owner's cart) and one with a query (a login link's token, filters the client applies).
 */
export function sharedPage(url: string): boolean {
  if (url.includes('?')) return false;
  return !url.split('/').some((segment) => {
    try {
      return decodeURIComponent(segment) === 'checkout';
    } catch {
      return true;
    }
  });
}

/** Whether a page request carries a login session's readable marker: its drawing waits for the member (DrawnVisitor),
 *  and the read cache keeps it apart from the page of a visitor without one (`pageVariant`). */
export const sessionMarked = (cookie: string | undefined): boolean => readMarker(cookie ?? null) !== null;

/**
 * Who asks for the page: their cookies (the checkout's cart) and network address (`request.ip`); and the headers the
 * read cache wants on the page's reads (read-cache.ts `withEmbeddedReads`).
 */
interface Visitor {
  cookie?: string;
  address: string;
  readHeaders?: Record<string, string>;
}

/**
 * The storefront's page for any client-side route. The phone would otherwise run the scripts, then ask for the
 * seller's config, then for the screen's data, then for the cover image, one after another; the server knows
 * most of that from the address, so the page carries:
 * - the answers to the route's first public reads (seller config, the events listing, the event and its dated
 *   calendar), as a JSON data block the client's API layer uses once (src/api/primed-reads.ts). They are the
 *   same public catalogue answers every visitor gets (read through the app itself, so the read cache and the
 *   API's own rules apply). The checkout's page also carries its cart, read with the request's own cookies as the
 *   browser would read it (so only the cart's owner gets it, drawn); that page is sent `no-store`;
 * - a preload of the header logo, and of the event's cover image (the event detail's largest paint) with the
 *   screen's exact srcset, ahead of the page's scripts;
 * - a modulepreload of the landing screen's chunks (events, an event, the checkout), which the boot would otherwise
 *   ask for only once the entry and the vendor chunk have arrived and run;
 * - the boot screen's loading status, so something is painted before the scripts arrive.
 * Any failure leaves those out: the storefront then asks for everything itself, as in development.
 */
export function createIndexPage(app: FastifyInstance, options: Options) {
  const deployment: BootData['deployment'] = {
    apiBaseUrl: API_BASE,
    cachedApiBaseUrl: CACHED_API_BASE,
    defaultSeller: options.defaultSeller,
  };
  const loading = `<div id="root"><main id="main" class="boot"><p class="page-status" role="status">${escapeHtml(options.loadingText)}</p></main></div>`;
  const plain = () => options.template().replace('<div id="root"></div>', loading);

  /** The page's root element with the screen the server drew in it (marked for the client to hydrate), its title
   *  and the seller's theme on <html>, or the page as it was when the screen is not drawn. */
  async function withDrawnScreen(
    page: string,
    url: string,
    data: BootData,
    visitor: DrawnVisitor,
    log: FastifyInstance['log'],
  ): Promise<string> {
    const { pathname, search } = new URL(url, 'http://page');
    const screen = drawnScreenOf(pathname, search, candidateSellerSlug(pathname));
    if (!options.drawScreen || !screen) return page;
    try {
      const drawn = await options.drawScreen(url, data, visitor);
      if (!drawn) return page;
      const style = Object.entries(drawn.theme)
        .map(([name, value]) => `${name}:${value}`)
        .join(';');
      // The screen's own stylesheets (the event page's reserve.css): the script that would load them comes later, and
      // the drawn screen would move when they arrived. The client's loader finds them linked and does not add them.
      const styles = (options.screenStyles?.(screen) ?? [])
        .map((href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`)
        .join('');
      return page
        .replace('</head>', () => `${styles}</head>`)
        .replace(loading, () => `<div id="root" data-drawn="">${drawn.html}</div>`)
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(drawn.title)}</title>`)
        .replace(/<html([^>]*)>/, (_, attributes: string) => `<html${attributes} style="${escapeHtml(style)}">`);
    } catch (error) {
      // The client draws the screen itself, as without the renderer.
      log.warn({ err: error, url: pathname }, 'screen not drawn on the server');
      return page;
    }
  }

  async function collect(
    url: string,
    visitor: Visitor,
  ): Promise<{ reads: Record<string, unknown>; head: string[]; early?: string; landing?: string; personal?: boolean }> {
    const { cookie } = visitor;
    const reads: Record<string, unknown> = {};
    const head: string[] = [];
    const get = async <T>(seller: string, read: Read, headers: Record<string, string> = {}): Promise<T | null> => {
      const address = readUrl(API_BASE, seller, read);
      // From the visitor's address: the read cache shows a visitor's own writes in their next reads (read-cache.ts).
      const response = await app.inject({
        method: 'GET',
        url: address,
        headers: { ...visitor.readHeaders, ...headers },
        remoteAddress: visitor.address,
      });
      if (response.statusCode !== 200) return null;
      const body = response.json() as T;
      reads[readKey(address)] = body;
      return body;
    };

    const { pathname, search } = new URL(url, 'http://page');
    let seller = options.defaultSeller;
    let path = pathname;
    let config: ConfigBody | null = null;
    const candidate = candidateSellerSlug(pathname);
    if (candidate) {
      config = await get<ConfigBody>(candidate, configRead());
      if (config?.seller?._data?.length) {
        seller = candidate;
        path = stripSellerPrefix(pathname, candidate);
      } else {
        config = null;
      }
    }
    config ??= await get<ConfigBody>(seller, configRead());
    if (!config?.seller?._data?.length) return { reads, head };

    const storefront = config.config?._data?.find((row) => row.key === 'storefront')?.value as StorefrontValue | undefined;
    // The header logo, on every page.
    const logo = storefront?.web?.logo;
    if (typeof logo === 'string' && logo) head.push(`<link rel="preload" as="image" href="${escapeHtml(logoSrc(API_BASE, logo))}">`);
    let route = stripTrailingSlash(path);
    // The home route goes where the router sends it (a query may be a one-time login link the home screen reads).
    if (route === '/' && !search) route = homeRedirectTarget(storefront ?? {}) ?? route;
    const screen = landingScreenOf(route);
    for (const href of screen ? (options.screenChunks?.(screen) ?? []) : []) {
      head.push(`<link rel="modulepreload" crossorigin href="${escapeHtml(href)}">`);
    }
    const segments = route.split('/').filter(Boolean).map(decodeURIComponent);
    if (segments[0] === 'checkout' && segments.length === 2 && cookie) {
      // The checkout's cart, read as its owner reads it (the page request's cookies): the summary paints without
      // waiting for the API client and a round trip. Only its owner gets it, and the page is not stored.
      await get(seller, cartRead(segments[1]), { cookie });
      return { reads, head, personal: true };
    }
    const [first, eventId, , ...rest] = segments;
    if (first !== 'events' || rest.length > 0) return { reads, head };
    if (!eventId) {
      // The listing's first read is the unfiltered one; filters in the address are the client's to apply.
      if (!search) await get(seller, availableEventsRead({}));
      return { reads, head, landing: route };
    }
    const [event, reservable] = await Promise.all([
      get<EventBody>(seller, eventRead(eventId)),
      get<ReservableBody>(seller, reservableEventRead(eventId)),
    ]);
    // The reservation flow's next read: the dated calendar of the groups it shows (src/stores/reservation/DateChoice.ts).
    const dated = reservable ? datedGroupIdsOf(reservable.ticket_group?._data ?? [], reservable.ticket_type?._data ?? []) : [];
    if (dated.length) await get(seller, calendarRead(eventId, dated));
    const imageId = coverImageId(event?.event_template?._data?.[0]?.meta);
    // The cover only when the seller's layout shows it (sections do not depend on who looks; blocks do, and are not asked).
    const layout = resolveLayout('event-detail', { configLayout: storefront?.layout, blocks: [], role: 'anonymous' });
    if (!imageId || !layout.some((item) => item.kind === 'section' && item.name === 'image')) return { reads, head, landing: route };
    const { src, srcSet } = coverSources(API_BASE, imageId);
    // `early`, first in the page: on HTTP/1.1 a phone opens six connections, and behind the screen's 20-odd script
    // preloads the cover waited for one (Lighthouse: its request came last, and its load took 0.5-1 s of a 2.5 s paint).
    const early = `<link rel="preload" as="image" href="${escapeHtml(src)}" imagesrcset="${escapeHtml(srcSet)}" imagesizes="${escapeHtml(COVER_SIZES)}" fetchpriority="high">`;
    return { reads, head, early, landing: route };
  }

  return {
    /** The page for `url`; `personal` when it carries an answer for this visitor alone (not to be stored). */
    async render(url: string, log: FastifyInstance['log'], visitor: Visitor): Promise<{ html: string; personal: boolean }> {
      try {
        const { reads, head, early = '', landing, personal = false } = await collect(url, visitor);
        const data: BootData = { deployment, reads, ...(landing ? { landing } : {}) };
        head.push(`<script type="application/json" id="${BOOT_DATA_ID}">${jsonForHtml(data)}</script>`);
        // The deployment config is in the page: its preload would fetch what nobody reads.
        const page = plain().replace(/\s*<link rel="preload" href="\/storefront-config\.json"[^>]*>/, '');
        const html = (
          page.includes('</title>') ? page.replace('</title>', `</title>${early}`) : page.replace('<head>', `<head>${early}`)
        ).replace('</head>', `${head.join('')}</head>`);
        return { html: await withDrawnScreen(html, url, data, { sessionMarked: sessionMarked(visitor.cookie) }, log), personal };
      } catch (error) {
        log.warn({ err: error, url: url.split('?')[0] }, 'page boot data left out');
        return { html: plain(), personal: false };
      }
    },
  };
}

/**
 * The built page's stylesheet (20 KB raw, 4.4 KB compressed) goes into the page itself: a linked one blocks the first
 * paint for a round trip (Lighthouse: about 150 ms on a throttled phone). The page is fetched once per visit (every
 * later screen is the client's), so the copy costs little; the CSP allows inline styles. A stylesheet that is not
 * there, or that could close the element, stays linked.
 */
export function inlineStylesheet(html: string, staticDir: string): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="(\/assets\/[\w.-]+\.css)">/, (link, href: string) => {
    try {
      const css = fs.readFileSync(path.join(staticDir, href), 'utf8');
      return /<\/style/i.test(css) ? link : `<style>${css}</style>`;
    } catch {
      return link;
    }
  });
}

/** Each landing screen's module (src/app/screens.ts). Vite's manifest keys a chunk by its source when the chunk is
 *  the module's own, and by its file when the bundler merged the module into a shared chunk named after it. */
const SCREEN_MODULES: Record<LandingScreen, { src: string; name: string }> = {
  events: { src: 'src/screens/events/EventsScreen.tsx', name: 'EventsScreen' },
  'event-detail': { src: 'src/screens/event-detail/EventDetailScreen.tsx', name: 'EventDetailScreen' },
  checkout: { src: 'src/screens/checkout/CheckoutScreen.tsx', name: 'CheckoutScreen' },
};

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * A file's contents as `derive` makes them, made again when the file changes (a build while the server runs replaces
 * the page and the manifest under new asset names). Throws what reading the file throws.
 */
function whenChanged<T>(file: string, derive: (text: string) => T): () => T {
  let cached: { mtimeMs: number; value: T } | undefined;
  return () => {
    const { mtimeMs } = fs.statSync(file);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, value: derive(fs.readFileSync(file, 'utf8')) };
    return cached.value;
  };
}

interface ScreenFiles {
  scripts: string[];
  styles: string[];
}

/** Each landing screen's chunk files in a manifest (its own and those it imports, without the entry's), and their
 *  stylesheets. */
function screenChunksOf(manifest: Record<string, ManifestChunk>): Record<LandingScreen, ScreenFiles> {
  const entryLoads = new Set<string>();
  const entryImports = (key: string) => {
    if (entryLoads.has(key)) return;
    entryLoads.add(key);
    manifest[key]?.imports?.forEach(entryImports);
  };
  Object.keys(manifest)
    .filter((key) => manifest[key].isEntry)
    .forEach(entryImports);
  const chunksOf = ({ src, name }: { src: string; name: string }): ScreenFiles => {
    const seen = new Set(entryLoads);
    const scripts: string[] = [];
    const styles: string[] = [];
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) return;
      seen.add(key);
      scripts.push(`/${chunk.file}`);
      for (const css of chunk.css ?? []) if (!styles.includes(`/${css}`)) styles.push(`/${css}`);
      chunk.imports?.forEach(visit);
    };
    visit(src in manifest ? src : (Object.keys(manifest).find((key) => key.startsWith('_') && manifest[key].name === name) ?? src));
    return { scripts, styles };
  };
  return {
    events: chunksOf(SCREEN_MODULES.events),
    'event-detail': chunksOf(SCREEN_MODULES['event-detail']),
    checkout: chunksOf(SCREEN_MODULES.checkout),
  };
}

/**
 * The chunks a landing screen loads first, from the build's manifest (dist/.vite/manifest.json), worked out once per
 * build: the screen's own and those it imports, without what the page already loads (the entry and its imports,
 * preloaded by the built page itself). A missing or unreadable manifest gives none.
 */
export function readScreenChunks(manifestFile: string): Required<Pick<Options, 'screenChunks' | 'screenStyles'>> {
  const chunks = whenChanged(manifestFile, (text) => screenChunksOf(JSON.parse(text) as Record<string, ManifestChunk>));
  const files = (screen: LandingScreen): ScreenFiles => {
    try {
      return chunks()[screen];
    } catch {
      return { scripts: [], styles: [] };
    }
  };
  return { screenChunks: (screen) => files(screen).scripts, screenStyles: (screen) => files(screen).styles };
}

/** The built page (read again when its file changes: a build while the server runs names new assets), its
 *  stylesheet inlined, the loading text from the English translation, and the landing screens' chunks. */
export function readIndexTemplate(
  file: string,
  translationFile: string,
): Pick<Options, 'template' | 'loadingText' | 'screenChunks' | 'screenStyles'> {
  const translation = JSON.parse(fs.readFileSync(translationFile, 'utf8')) as { app?: { loading?: string } };
  const template = whenChanged(file, (html) => inlineStylesheet(html, path.dirname(file)));
  return {
    template,
    loadingText: translation.app?.loading ?? '',
    ...readScreenChunks(path.join(path.dirname(file), '.vite', 'manifest.json')),
  };
}

/**
 * The server's renderer built into `ssrDir` (dist-ssr/entry-server.js), imported when a page first needs it (it
 * brings React and the screens, which a start that serves no drawn page never loads); undefined when it is not built.
 * A renderer that cannot be imported is tried again by the next page.
 */
export function serverRenderer(ssrDir: string, now: () => Date): Options['drawScreen'] {
  const file = path.join(ssrDir, 'entry-server.js');
  if (!fs.existsSync(file)) return undefined;
  let loaded: Promise<ServerRenderer> | undefined;
  return async (url, data, visitor) => {
    loaded ??= (import(pathToFileURL(file).href) as Promise<ServerRenderer>).catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return (await loaded).renderScreen(url, data, now, visitor);
  };
}

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { insertCartFixture } from '../helpers/cart-fixtures';
import { loadDemo } from '../helpers/auth';
import { BOOT_DATA_ID, readKey, type BootData } from '../../src/contract/first-reads';
import { coverSources, logoSrc } from '../../src/domain/page-images';
import { datedGroupIdsOf } from '../../src/domain/reservable-groups';
import type { TicketGroupRow, TicketTypeRow } from '../../src/api/events';

/** The built page, as vite writes it (the parts the server fills in). */
const TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Tickets</title>
<link rel="preload" href="/storefront-config.json" as="fetch" crossorigin />
<script type="module" crossorigin src="/assets/index.js"></script>
<link rel="stylesheet" crossorigin href="/assets/index-abc123.css"></head><body><div id="root"></div></body></html>`;
const CSS = '.page-status{color:#333}';
/** The build's manifest, as Vite writes it: the event detail's chunk keyed by its source, the listing merged into a
 *  shared chunk keyed by its file, both importing the entry's vendor chunk and a chunk of their own. */
const MANIFEST = {
  'index.html': { file: 'assets/index.js', src: 'index.html', isEntry: true, imports: ['_vendor-1.js'] },
  '_vendor-1.js': { file: 'assets/vendor-1.js', name: 'vendor' },
  '_EventsScreen-2.js': { file: 'assets/EventsScreen-2.js', name: 'EventsScreen', imports: ['_vendor-1.js', 'index.html', '_shared-3.js'] },
  '_shared-3.js': { file: 'assets/shared-3.js', name: 'shared', imports: ['_vendor-1.js'] },
  'src/screens/event-detail/EventDetailScreen.tsx': {
    file: 'assets/EventDetailScreen-4.js',
    name: 'EventDetailScreen',
    src: 'src/screens/event-detail/EventDetailScreen.tsx',
    isDynamicEntry: true,
    imports: ['_vendor-1.js', 'index.html', '_EventsScreen-2.js', '_shared-3.js'],
  },
};

/** The data block a page carries. */
const bootData = (html: string) => JSON.parse(new JSDOM(html).window.document.getElementById(BOOT_DATA_ID)!.textContent!) as BootData;

/** Every page the storefront is sent carries the answers to its first public reads and, on an event, the cover. */
describeEachDatabase('the storefront page', (ctx) => {
  let app: FastifyInstance;
  let eventId: string;
  let coverId: string;
  const staticDir = mkdtempSync(path.join(tmpdir(), 'page-'));

  const page = async (url: string) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    const doc = new JSDOM(res.body).window.document;
    const block = doc.getElementById(BOOT_DATA_ID);
    return { res, doc, data: block ? (JSON.parse(block.textContent!) as BootData) : null };
  };
  const api = async (url: string) => (await app.inject({ url })).json();

  beforeAll(async () => {
    await loadDemo(ctx().db, new Date());
    writeFileSync(path.join(staticDir, 'index.html'), TEMPLATE);
    mkdirSync(path.join(staticDir, 'assets'));
    writeFileSync(path.join(staticDir, 'assets', 'index-abc123.css'), CSS);
    mkdirSync(path.join(staticDir, '.vite'));
    writeFileSync(path.join(staticDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    const deps = testDeps(ctx());
    app = await buildTestApp({ ...deps, config: { ...deps.config, staticDir } });
    const events = await api('/api/events/available?_seller=demo&_embed=meta');
    const withCover = events.event_template._data.find((e: { meta?: { image_cover?: string } }) => e.meta?.image_cover);
    eventId = withCover.id;
    coverId = withCover.meta.image_cover;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the built stylesheet is in the page, not linked: nothing blocks the first paint', async () => {
    const { doc } = await page('/events');
    expect(doc.querySelector('link[rel=stylesheet]')).toBeNull();
    expect([...doc.querySelectorAll('head style')].map((s) => s.textContent)).toEqual([CSS]);
  });

  it('/events carries the deployment, the seller config and the unfiltered listing, each equal to the API answer', async () => {
    const { doc, data } = await page('/events');
    expect(data!.deployment).toEqual({ apiBaseUrl: '/api', cachedApiBaseUrl: '/cached_api', defaultSeller: 'demo' });
    const configUrl = '/api/config?_seller=demo&key._in=storefront,strings,content_blocks';
    const listUrl = '/api/events/available?_seller=demo&hidden_type._in=public_browsable&_embed=venue,meta';
    expect(Object.keys(data!.reads).sort()).toEqual([readKey(configUrl), readKey(listUrl)].sort());
    expect(data!.reads[readKey(configUrl)]).toEqual(await api(configUrl));
    expect(data!.reads[readKey(listUrl)]).toEqual(await api(listUrl));
    // The deployment config is in the page, so its preload is gone; the loading status is the first paint.
    expect(doc.querySelector('link[href="/storefront-config.json"]')).toBeNull();
    expect(doc.querySelector('#root [role="status"]')?.textContent).toBe('Loading…');
    // The header logo is fetched with the page, at the address the header asks for.
    const storefront = (
      data!.reads[readKey(configUrl)] as { config: { _data: { key: string; value: { web: { logo: string } } }[] } }
    ).config._data.find((row) => row.key === 'storefront')!.value;
    const images = [...doc.querySelectorAll('link[rel="preload"][as="image"]')].map((l) => l.getAttribute('href'));
    expect(images).toEqual([logoSrc('/api', storefront.web.logo)]);
  });

  it('a filtered listing leaves the listing to the client; an unknown path carries the config only', async () => {
    expect(Object.keys((await page('/events?date=today')).data!.reads)).toHaveLength(1);
    expect(Object.keys((await page('/my/orders')).data!.reads)).toHaveLength(1);
  });

  it("an event carries both reads of the event and its calendar, and preloads its cover with the screen's own srcset", async () => {
    const { doc, data } = await page(`/events/${eventId}`);
    const keys = Object.keys(data!.reads);
    expect(keys.filter((k) => k.startsWith(`/api/events/${eventId}?`))).toHaveLength(2);
    const detailUrl = `/api/events/${eventId}?_seller=demo&_embed=venue,meta`;
    expect(data!.reads[readKey(detailUrl)]).toEqual(await api(detailUrl));
    // ... and the reservation flow's calendar, for the groups the flow asks about (the store's own rule).
    const reservable = data!.reads[keys.find((k) => k.includes('ticket_group'))!] as {
      ticket_group: { _data: TicketGroupRow[] };
      ticket_type: { _data: TicketTypeRow[] };
    };
    const groupIds = datedGroupIdsOf(reservable.ticket_group._data, reservable.ticket_type._data);
    expect(groupIds.length).toBeGreaterThan(0);
    const calendarUrl = `/api/events/${eventId}/calendar?_seller=demo&_format=extended&ticket_group_id._in=${groupIds.join(',')}`;
    expect(data!.reads[readKey(calendarUrl)]).toEqual(await api(calendarUrl));
    expect(keys).toHaveLength(4);
    const preload = doc.querySelector('link[rel="preload"][as="image"][imagesrcset]')!;
    const { src, srcSet } = coverSources('/api', coverId);
    expect(preload.getAttribute('href')).toBe(src);
    expect(preload.getAttribute('imagesrcset')).toBe(srcSet);
    expect(preload.getAttribute('fetchpriority')).toBe('high');
    // Ahead of every script the page names: a phone's six connections go to the cover first, not after 20-odd chunks.
    const firstScript = doc.querySelector('script[src], link[rel="modulepreload"]')!;
    expect(preload.compareDocumentPosition(firstScript) & doc.defaultView!.Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('the home page carries the admission event it goes to (membership presell off), and names it as the landing', async () => {
    const config = await api('/api/config?_seller=demo');
    const storefront = config.config._data.find((row: { key: string }) => row.key === 'storefront').value;
    expect(storefront.membership_presell).toBe(false);
    const { doc, data } = await page('/');
    expect(data!.landing).toBe(`/events/${storefront.admission_event_id}`);
    expect(Object.keys(data!.reads).filter((k) => k.startsWith(`/api/events/${storefront.admission_event_id}?`))).toHaveLength(2);
    expect(doc.querySelector('link[as="image"][imagesrcset]')).not.toBeNull();
    expect((await page('/events')).data!.landing).toBe('/events');
    expect((await page('/my/orders')).data!.landing).toBeUndefined();
  });

  it('under the seller prefix the reads are the same; an event that does not exist carries no event read', async () => {
    const prefixed = await page(`/demo/events/${eventId}`);
    expect(Object.keys(prefixed.data!.reads)).toHaveLength(4);
    const missing = await page('/events/00000000-0000-4000-8000-000000000000');
    expect(Object.keys(missing.data!.reads)).toHaveLength(1);
    expect(missing.doc.querySelector('link[as="image"][imagesrcset]')).toBeNull();
  });

  it("preloads the landing screen's chunks (not those the built page already loads); other pages preload none", async () => {
    const preloads = async (url: string) =>
      [...(await page(url)).doc.querySelectorAll('link[rel=modulepreload]')].map((l) => l.getAttribute('href'));
    expect(await preloads('/events')).toEqual(['/assets/EventsScreen-2.js', '/assets/shared-3.js']);
    expect(await preloads(`/events/${eventId}`)).toEqual([
      '/assets/EventDetailScreen-4.js',
      '/assets/EventsScreen-2.js',
      '/assets/shared-3.js',
    ]);
    expect(await preloads(`/demo/events/${eventId}`)).toEqual(await preloads(`/events/${eventId}`));
    // the checkout's screen is not in this manifest: nothing to name, and the page still answers
    expect(await preloads('/checkout/00000000-0000-4000-8000-000000000000')).toEqual([]);
    expect(await preloads('/my/account')).toEqual([]);
  });

  it('seller text cannot close the data block: a name with </script> and <!-- stays data', async () => {
    const name = '</script><script>window.pwned=1</script><!-- & \u2028';
    await sql`update event_template set name = ${name} where id = ${eventId}`.execute(ctx().db);
    const { res, doc, data } = await page(`/events/${eventId}`);
    expect(res.body).not.toContain('<script>window.pwned');
    expect([...doc.querySelectorAll('script')].map((s) => s.getAttribute('type') ?? 'classic')).toEqual(['module', 'application/json']);
    const read = data!.reads[readKey(`/api/events/${eventId}?_seller=demo&_embed=venue,meta`)] as {
      event_template: { _data: { name: string }[] };
    };
    expect(read.event_template._data[0].name).toBe(name);
  });

  it("the checkout carries its cart to the cart's owner alone, read as the owner reads it, and is not stored", async () => {
    const fx = await insertCartFixture(ctx().db, { now: new Date() });
    const owner = new Browser(app);
    const made = await owner.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
    });
    expect(made.status).toBe(200);
    const cartId: string = made.body.cart._data[0].id;
    const cartUrl = `/api/cart/${cartId}?_seller=${fx.slug}&_embed=venue`;
    const asOwner = await app.inject({ url: `/${fx.slug}/checkout/${cartId}`, headers: { cookie: owner.cookie! } });
    expect(asOwner.headers['cache-control']).toBe('private, no-store');
    const data = bootData(asOwner.body);
    const primed = data.reads[readKey(cartUrl)] as { cart: { _data: Array<{ id: string; expires_in: number }> } };
    expect(primed.cart._data[0].id).toBe(cartId);
    // The same answer the owner's own read gets (the seconds left may have ticked on).
    const read = (await owner.get(cartUrl)).body;
    expect({ ...primed, cart: { ...primed.cart, _data: [{ ...primed.cart._data[0], expires_in: 0 }] } }).toEqual({
      ...read,
      cart: { ...read.cart, _data: [{ ...read.cart._data[0], expires_in: 0 }] },
    });
    // Another browser's cookie, or none, gets the config only: the cart is read by the client, and refused there.
    const stranger = new Browser(app);
    await stranger.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
    });
    for (const headers of [{ cookie: stranger.cookie! }, {}]) {
      const other = await app.inject({ url: `/${fx.slug}/checkout/${cartId}`, headers });
      const reads = bootData(other.body).reads;
      expect(Object.keys(reads).some((key) => key.includes(cartId))).toBe(false);
      expect(Object.keys(reads)).toHaveLength(1);
    }
  });

  it("with the read cache on, a visitor's page shows their own reservation at once; others may get the kept reads", async () => {
    const fx = await insertCartFixture(ctx().db, { slug: 'page-cache', now: new Date() });
    const deps = testDeps(ctx());
    const cached = await buildTestApp({ ...deps, config: { ...deps.config, staticDir, readCacheMs: 60_000 } });
    try {
      const used = async (address: string, url = `/${fx.slug}/events/${fx.eventId}`) => {
        const res = await cached.inject({ url, remoteAddress: address });
        const reads = bootData(res.body).reads;
        const calendar = reads[Object.keys(reads).find((key) => key.includes('/calendar'))!] as {
          calendar: { _data: Array<{ availability: { used_capacity: number } }> };
        };
        return calendar.calendar._data.reduce((sum, day) => sum + day.availability.used_capacity, 0);
      };
      const before = await used('10.0.0.2');
      const buyer = new Browser(cached, '10.0.0.1');
      const made = await buyer.post(`/api/cart/modify?_seller=${fx.slug}`, {
        add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
      });
      expect(made.status).toBe(200);
      expect(await used('10.0.0.2')).toBe(before);
      // A page another visitor made after the write, from reads kept from before it, is as old as those reads.
      const variant = `/${fx.slug}/events/${fx.eventId}/`;
      expect(await used('10.0.0.3', variant)).toBe(before);
      expect(await used('10.0.0.1', variant)).toBe(before + 1);
      expect(await used('10.0.0.1')).toBe(before + 1);

      // The page itself is kept like the reads, with its own Cache-Control; a checkout's and one with a query never.
      const twice = async (url: string, headers: Record<string, string> = {}) => {
        const first = await cached.inject({ url, headers });
        const second = await cached.inject({ url, headers });
        expect(second.statusCode).toBe(200);
        expect(second.headers['cache-control']).toBe(first.headers['cache-control']);
        return { first, second };
      };
      const listing = await twice(`/${fx.slug}/events`);
      expect(listing.second.headers['x-read-cache']).toBe('hit');
      expect(listing.second.headers['cache-control']).toBe('no-cache');
      expect(listing.second.body).toBe(listing.first.body);
      const br = await cached.inject({ url: `/${fx.slug}/events`, headers: { 'accept-encoding': 'br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(listing.first.body);
      const cartId: string = made.body.cart._data[0].id;
      for (const [url, headers] of [
        [`/${fx.slug}/checkout/${cartId}`, { cookie: buyer.cookie! }],
        [`/${fx.slug}/checkout/${cartId}`, {}],
        [`/${fx.slug}/check%6Fut/${cartId}`, {}],
        [`/${fx.slug}/events?date=2026-12-01`, {}],
      ] as Array<[string, Record<string, string>]>) {
        expect((await twice(url, headers)).second.headers['x-read-cache'], url).toBeUndefined();
      }
    } finally {
      await cached.close();
    }
  });

  it('goes compressed, is never cached, and a missing asset or API route is a 404, not the page', async () => {
    const br = await app.inject({ url: '/events', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain(BOOT_DATA_ID);
    expect((await app.inject({ url: '/assets/gone-1234.js' })).statusCode).toBe(404);
    const apiMiss = await app.inject({ url: '/api/no-such-route' });
    expect(apiMiss.statusCode).toBe(404);
    expect(apiMiss.json()._data[0]._code).toBe('not_found');
  });

  it("a file the browser or a crawler asks for (favicon, robots.txt) is a plain 404, not the storefront's page", async () => {
    for (const url of ['/favicon.ico', '/robots.txt', '/apple-touch-icon-precomposed.png', '/demo/sitemap.xml', '/favicon.ico?v=2']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('text/plain');
      expect(res.body, url).toBe('Not found');
    }
    // Routes stay the page, the unknown ones too (the storefront's own 'Oops!'), and so does /index.html.
    for (const url of ['/events', `/events/${eventId}`, '/no-such-page', '/demo/events', '/index.html', '/events.'])
      expect((await app.inject({ url })).headers['content-type'], url).toContain('text/html');
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { insertCartFixture } from '../helpers/cart-fixtures';
import { loadDemo } from '../helpers/auth';
import { BOOT_DATA_ID } from '../../src/contract/first-reads';
import { SESSION_MARKER_COOKIE } from '../../src/domain/session';

/** The built page, as vite writes it (the parts the server fills in). */
const TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Tickets</title>
<script type="module" crossorigin src="/assets/index.js"></script></head><body><div id="root"></div></body></html>`;
const SOURCE = path.resolve('src/entry-server.tsx');
/** The build's manifest: the event page's screen imports a chunk with a stylesheet of its own; the entry's is in the
 *  page already. */
const MANIFEST = {
  'index.html': { file: 'assets/index.js', src: 'index.html', isEntry: true, css: ['assets/index-1.css'] },
  'src/screens/event-detail/EventDetailScreen.tsx': {
    file: 'assets/EventDetailScreen-2.js',
    name: 'EventDetailScreen',
    src: 'src/screens/event-detail/EventDetailScreen.tsx',
    imports: ['index.html', '_reserve-3.js'],
  },
  '_reserve-3.js': { file: 'assets/reserve-3.js', name: 'reserve', css: ['assets/reserve-4.css'] },
};

/** A folder laid out as `vite build --ssr` leaves dist-ssr/, its entry-server.js being `code`. */
function rendererDir(code: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ssr-'));
  writeFileSync(path.join(dir, 'entry-server.js'), code);
  return dir;
}

/**
 * Server rendering (issue 19): the events listing arrives drawn, from the same reads the page carries, for the client
 * to hydrate; any other page, and any failure of the renderer, is the page as before (the loading status).
 */
describeEachDatabase('the screen drawn by the server', (ctx) => {
  let app: FastifyInstance;
  let failing: FastifyInstance;
  /** The configuration of `app`: the built page and the renderer. */
  let drawing: ReturnType<typeof testDeps>['config'];
  const staticDir = mkdtempSync(path.join(tmpdir(), 'page-'));

  const page = async (target: FastifyInstance, url: string) => {
    const res = await target.inject({ url });
    expect(res.statusCode).toBe(200);
    return new JSDOM(res.body).window.document;
  };

  beforeAll(async () => {
    await loadDemo(ctx().db, new Date());
    writeFileSync(path.join(staticDir, 'index.html'), TEMPLATE);
    mkdirSync(path.join(staticDir, 'assets'));
    mkdirSync(path.join(staticDir, '.vite'));
    writeFileSync(path.join(staticDir, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    const deps = testDeps(ctx());
    // The renderer's source itself (vitest compiles it), where the build's dist-ssr/entry-server.js would be.
    const ssrDir = rendererDir(`export { renderScreen } from ${JSON.stringify(SOURCE)};\n`);
    drawing = { ...deps.config, staticDir, ssrDir };
    app = await buildTestApp({ ...deps, config: drawing });
    const broken = rendererDir(`export async function renderScreen() { throw new Error('renderer broke'); }\n`);
    failing = await buildTestApp({ ...testDeps(ctx()), config: { ...deps.config, staticDir, ssrDir: broken } });
  });
  afterAll(async () => {
    await app?.close();
    await failing?.close();
  });

  it("/events arrives drawn: the shell, the seller's blocks, each listed event and the theme, marked for hydration", async () => {
    const listing = (await app.inject({ url: '/api/events/available?_seller=demo' })).json() as {
      event_template: { _data: { name: string }[] };
    };
    const names = listing.event_template._data.map((e) => e.name);
    expect(names.length).toBeGreaterThan(2);
    for (const url of ['/events', '/demo/events']) {
      const doc = await page(app, url);
      const root = doc.getElementById('root')!;
      expect(root.hasAttribute('data-drawn'), url).toBe(true);
      expect(root.querySelector('h1')?.textContent, url).toBe('Choose your events');
      expect(root.querySelector('.site-header .brand__name')?.textContent, url).toBe('Demo Museum of Art & Science');
      expect(
        [...root.querySelectorAll('.event-item__name')].map((h) => h.textContent),
        url,
      ).toEqual(names);
      expect(root.querySelector('.page-status'), url).toBeNull();
      expect(doc.documentElement.getAttribute('style'), url).toContain('--color-primary:#1f4e79');
      expect(doc.title, url).toBe('Choose your events | Demo Museum of Art & Science');
      // The page still carries the reads the client hydrates from.
      expect(doc.getElementById(BOOT_DATA_ID), url).not.toBeNull();
    }
  });

  it("a page asked with a login session's marker is drawn without the login links, and kept apart from everyone else's", async () => {
    const marked = { cookie: `other=1; ${SESSION_MARKER_COOKIE}=4f2a` };
    const drawnWith = async (target: FastifyInstance, headers: Record<string, string> = {}) => {
      const res = await target.inject({ url: '/events', headers });
      expect(res.statusCode).toBe(200);
      const root = new JSDOM(res.body).window.document.getElementById('root')!;
      expect(root.hasAttribute('data-drawn')).toBe(true);
      expect(root.querySelector('h1')?.textContent).toBe('Choose your events');
      const held = [...root.querySelectorAll('.content-block--held')].map((block) => block.className);
      const blocks = [...root.querySelectorAll('.content-block')].length;
      return { header: root.querySelector('.site-header')!, cache: res.headers['x-read-cache'], held, blocks };
    };
    // Nobody can be logged in: the links, as the browser's first render draws them.
    const visitor = await drawnWith(app);
    const anonymous = visitor.header;
    expect(anonymous.querySelector('button')?.textContent).toBe('Log in');
    expect(anonymous.querySelector('[aria-label="Account"]')).not.toBeNull();
    expect(visitor.held).toEqual([]);
    // Someone may be (the browser reads the same marker and waits for who): neither the links nor anybody's name.
    const marked1 = await drawnWith(app, marked);
    const member = marked1.header;
    expect(member.querySelector('button, nav')).toBeNull();
    expect(member.querySelector('.brand__name')?.textContent).toBe('Demo Museum of Art & Science');
    // The visitors' welcome (for 'anonymous' alone) keeps its place unseen; the note every visitor gets is shown.
    expect(marked1.held).toEqual(['content-block content-block--events-welcome content-block--held']);
    expect(marked1.blocks).toBe(visitor.blocks);

    // The read cache keeps one page of each kind: neither is served to the other.
    const cached = await buildTestApp({ ...testDeps(ctx()), config: { ...drawing, readCacheMs: 60_000 } });
    try {
      expect((await drawnWith(cached, marked)).header.querySelector('button')).toBeNull();
      const other = await drawnWith(cached);
      expect(other.cache).toBeUndefined();
      expect(other.header.querySelector('button')?.textContent).toBe('Log in');
      const again = await drawnWith(cached, marked);
      expect(again.cache).toBe('hit');
      expect(again.header.querySelector('button')).toBeNull();
      expect((await drawnWith(cached)).cache).toBe('hit');
    } finally {
      await cached.close();
    }
  });

  it("an event's page arrives drawn: its heading, its cover with the screen's sources, and its title", async () => {
    const listing = (await app.inject({ url: '/api/events/available?_seller=demo&_embed=meta' })).json() as {
      event_template: { _data: { id: string; name: string; meta?: { image_cover?: string } }[] };
    };
    const event = listing.event_template._data.find((e) => e.meta?.image_cover)!;
    for (const url of [`/events/${event.id}`, `/demo/events/${event.id}`]) {
      const doc = await page(app, url);
      const root = doc.getElementById('root')!;
      expect(root.hasAttribute('data-drawn'), url).toBe(true);
      expect(root.querySelector('h1')?.textContent, url).toBe(event.name);
      const cover = root.querySelector('img.event-detail__image');
      expect(cover?.getAttribute('src'), url).toContain(event.meta!.image_cover);
      expect(cover?.getAttribute('srcset'), url).toContain(event.meta!.image_cover);
      expect(doc.title, url).toBe(`${event.name} | Demo Museum of Art & Science`);
      // Drawn with its own styles, not restyled when its script arrives.
      expect(
        [...doc.head.querySelectorAll('link[rel=stylesheet]')].map((l) => l.getAttribute('href')),
        url,
      ).toEqual(['/assets/reserve-4.css']);
    }
    expect((await page(app, '/events')).head.querySelector('link[rel=stylesheet]')).toBeNull();
  });

  it("a checkout's page arrives drawn for its cart's owner alone: the title, the cart, its total and its hold", async () => {
    const fx = await insertCartFixture(ctx().db, { slug: 'drawn-checkout', now: new Date() });
    const owner = new Browser(app);
    const made = await owner.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
    });
    expect(made.status).toBe(200);
    const cart = made.body.cart._data[0] as { id: string; cart_fees: { grand_totals: { total_outstanding: string } } };
    const url = `/${fx.slug}/checkout/${cart.id}`;
    const asOwner = await app.inject({ url, headers: { cookie: owner.cookie! } });
    expect(asOwner.headers['cache-control']).toBe('private, no-store');
    const doc = new JSDOM(asOwner.body).window.document;
    const root = doc.getElementById('root')!;
    expect(root.hasAttribute('data-drawn')).toBe(true);
    expect(root.querySelector('h1')?.textContent).toBe('Payment information');
    expect(root.querySelector('.checkout-summary h2')?.textContent).toBe('Order summary');
    expect(root.querySelector('.checkout-summary')?.textContent).toContain('General Admission');
    const due = `$${cart.cart_fees.grand_totals.total_outstanding}`;
    expect(root.querySelector('.checkout-totals__due dd')?.textContent).toBe(due);
    // The purchaser form follows once the page is alive. The countdown stands at the hold the page's answer gave (the
    // browser hydrates from the same answer, whatever its clock says), and runs once the page is alive.
    expect(root.querySelector('.checkout-page__main .form-loading')?.textContent).toBe('Loading…');
    const left = (made.body.cart._data[0] as { expires_in: number }).expires_in;
    const shown = root.querySelector('[role=timer]')?.textContent ?? '';
    const [minutes, seconds] = shown.replace('Your tickets are held for ', '').split(':').map(Number);
    expect(minutes * 60 + seconds).toBeLessThanOrEqual(left - 5);
    expect(minutes * 60 + seconds).toBeGreaterThan(left - 5 - 30);
    expect(doc.title).toBe('Payment information | Cart Test Museum');
    // Another browser's cookie, or none: the cart is not in the page, nor drawn.
    const stranger = new Browser(app);
    await stranger.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
    });
    for (const headers of [{ cookie: stranger.cookie! }, {}]) {
      const other = await app.inject({ url, headers });
      const otherRoot = new JSDOM(other.body).window.document.getElementById('root')!;
      expect(otherRoot.hasAttribute('data-drawn')).toBe(false);
      expect(otherRoot.querySelector('.page-status')?.textContent).toBe('Loading…');
      expect(other.body).not.toContain('General Admission');
    }
    // Emptied, the cart is the client's to send home: not drawn.
    const tickets = (made.body.ticket._data as { id: string }[]).map((t) => t.id);
    const emptied = await owner.post(`/api/cart/${cart.id}/remove?_seller=${fx.slug}`, { tickets });
    expect(emptied.status).toBe(200);
    const empty = await app.inject({ url, headers: { cookie: owner.cookie! } });
    expect(new JSDOM(empty.body).window.document.getElementById('root')!.hasAttribute('data-drawn')).toBe(false);
  });

  it('every other page carries the loading status: a filtered listing, an unknown event, an action, the home route, a trailing slash', async () => {
    const listing = (await app.inject({ url: '/api/events/available?_seller=demo' })).json() as {
      event_template: { _data: { id: string }[] };
    };
    const id = listing.event_template._data[0].id;
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const url of [
      '/events?category=tour',
      `/events/${unknown}`,
      `/events/${id}/tickets`,
      `/events/${id}?code=X`,
      '/',
      '/no-such-page',
      '/events/',
      '/checkout',
      '/checkout/complete',
      `/checkout/${unknown}`,
    ]) {
      const root = (await page(app, url)).getElementById('root')!;
      expect(root.hasAttribute('data-drawn'), url).toBe(false);
      expect(root.querySelector('.page-status')?.textContent, url).toBe('Loading…');
      expect((await page(app, url)).title, url).toBe('Tickets');
    }
  });

  it('a renderer that fails leaves the page as it was: the loading status and the reads', async () => {
    const doc = await page(failing, '/events');
    const root = doc.getElementById('root')!;
    expect(root.hasAttribute('data-drawn')).toBe(false);
    expect(root.querySelector('.page-status')?.textContent).toBe('Loading…');
    expect(doc.getElementById(BOOT_DATA_ID)).not.toBeNull();
  });
});

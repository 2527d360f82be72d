import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { describeEachDatabase } from '../helpers/db';
import { FIXTURE_NOW, insertFixtures } from '../helpers/fixtures';
import type { Db, DbKind } from '../../server/db';

let db: Db;
let kind: DbKind;
let dir: string;
let app: FastifyInstance | undefined;

const base = { slug: 'fixture', name: 'Fixture Museum', default_currency_code: 'USD', timezone: 'America/New_York' };
const writeConfig = (config: Record<string, unknown>) => writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
const writeStrings = (strings: Record<string, string>) => writeFileSync(path.join(dir, 'strings.json'), JSON.stringify(strings));
function writeBlock(name: string, roles: string, html: string) {
  mkdirSync(path.join(dir, 'content-blocks'), { recursive: true });
  writeFileSync(path.join(dir, 'content-blocks', `${name}.html`), `---\nslot: top\nroutes: events\nroles: ${roles}\n---\n${html}\n`);
}
const configEntry = async (a: FastifyInstance, key: string) =>
  (await a.inject({ url: `/api/config?key._in=${key}` })).json().config._data[0].value as unknown;

/** The API as `npm start` builds it with SELLER_WATCH_DIRS naming the folder, and its read cache on (1 s, the default). */
async function watchingApp() {
  app = await buildApp({
    db,
    dbKind: kind,
    config: readConfig({ DEFAULT_SELLER: 'fixture', STATIC_DIR: '/nonexistent-static', SELLER_WATCH_DIRS: dir }),
    now: () => FIXTURE_NOW,
  });
  return app;
}

const storefrontOf = async (a: FastifyInstance) =>
  (await a.inject({ url: '/api/config?key._in=storefront' })).json().config._data[0].value as Record<string, unknown>;

/** Polls GET config until `check` holds (the watcher looks at the file every 250 ms). */
async function eventually(a: FastifyInstance, check: (storefront: Record<string, unknown>) => boolean, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    const storefront = await storefrontOf(a);
    if (check(storefront)) return storefront;
    if (Date.now() > until) throw new Error(`GET config still answers ${JSON.stringify(storefront)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'seller-watch-'));
  // The catalogue is loaded already (the fixtures): the folder needs one to read, its contents are not applied.
  writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify({ venues: [], events: [] }));
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describeEachDatabase(
  'config, strings and content blocks from a watched seller folder',
  () => {
    it('a changed flag reaches GET config without a restart, past the read cache', async () => {
      writeConfig({ ...base, flags: { promo_field: true } });
      const a = await watchingApp();
      const before = await storefrontOf(a);
      // GET config decides every flag: unset ones from their older settings (none here).
      expect(before.flags).toEqual({
        promo_field: false,
        upsells: true,
        extend_timer: false,
        membership_presell: false,
        address_lookup: false,
      });
      // Touch the file after the watcher started: the first change it sees writes the flags.
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeConfig({ ...base, flags: { promo_field: true, upsells: false }, flags_poll_ms: 2000 });
      const after = await eventually(a, (s) => (s.flags as { upsells?: boolean } | undefined)?.upsells === false);
      expect(after).toMatchObject({
        flags: { promo_field: true, upsells: false, extend_timer: false, membership_presell: false, address_lookup: false },
        flags_poll_ms: 2000,
      });
      // The read cache answered the earlier GET; the new flags still show at once after the write (cache cleared).
      expect(await storefrontOf(a)).toEqual(after);
    });

    it('a file that does not validate changes nothing', async () => {
      writeConfig({ ...base, flags: { promo_field: true } });
      const a = await watchingApp();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const earlier = (await storefrontOf(a)).flags;
      writeConfig({ ...base, flags: { promo_field: 'yes' } });
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect((await storefrontOf(a)).flags).toEqual(earlier);
      writeConfig({ ...base, flags: { promo_field: false, membership_presell: true } });
      const after = await eventually(a, (s) => (s.flags as { membership_presell?: boolean } | undefined)?.membership_presell === true);
      // The first valid file after the broken one is what got written; the broken value never did.
      expect(after.flags).toEqual({
        promo_field: false,
        upsells: true,
        extend_timer: false,
        membership_presell: true,
        address_lookup: false,
      });
    });

    it('string overrides, content blocks and the layout change without a restart', async () => {
      writeConfig(base);
      const a = await watchingApp();
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeStrings({ 'events.title': 'What is on' });
      writeBlock('curator', 'member', '<p>Members: Curator Late <script>alert(1)</script>on Thursday</p>');
      writeConfig({
        ...base,
        layout: {
          events: { member: ['block:curator', 'heading', 'results'] },
          checkout: ['purchaser', 'donation', 'payment', 'terms', 'submit'],
        },
      });
      const after = await eventually(a, (s) => s.layout !== undefined);
      expect(after.layout).toEqual({
        events: { member: ['block:curator', 'heading', 'results'] },
        checkout: ['purchaser', 'donation', 'payment', 'terms', 'submit'],
      });
      expect(await configEntry(a, 'strings')).toEqual({ 'events.title': 'What is on' });
      const blocks = (await configEntry(a, 'content_blocks')) as Array<{ name: string; roles: string[]; html: string }>;
      const curator = blocks.find((b) => b.name === 'curator')!;
      // Sanitised as a load would (the script is gone), with its role.
      expect(curator).toMatchObject({ roles: ['member'], html: '<p>Members: Curator Late on Thursday</p>' });
    });

    it('a layout naming a section or block that does not exist changes nothing', async () => {
      writeConfig(base);
      const a = await watchingApp();
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeConfig({ ...base, layout: { events: ['heading', 'results'] } });
      await eventually(a, (s) => JSON.stringify(s.layout) === JSON.stringify({ events: ['heading', 'results'] }));
      writeConfig({ ...base, layout: { events: ['heading', 'block:nowhere', 'resluts'] } });
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect((await storefrontOf(a)).layout).toEqual({ events: ['heading', 'results'] });
      writeConfig({ ...base, layout: { events: ['results', 'heading'] } });
      await eventually(a, (s) => JSON.stringify(s.layout) === JSON.stringify({ events: ['results', 'heading'] }));
    });

    it('a config naming an event not loaded yet changes nothing', async () => {
      writeConfig(base);
      const a = await watchingApp();
      await new Promise((resolve) => setTimeout(resolve, 300));
      writeConfig({ ...base, layout: { events: ['filters'] } });
      await eventually(a, (s) => JSON.stringify(s.layout) === JSON.stringify({ events: ['filters'] }));
      writeFileSync(
        path.join(dir, 'catalog.json'),
        JSON.stringify({ venues: [], events: [{ key: 'new-show', name: 'New show', ticket_groups: [] }] }),
      );
      writeConfig({ ...base, admission_event_id: 'new-show', layout: { events: ['results'] } });
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect((await storefrontOf(a)).layout).toEqual({ events: ['filters'] });
    });
  },
  async (h) => {
    db = h.db;
    kind = h.kind;
    await insertFixtures(h.db);
  },
);

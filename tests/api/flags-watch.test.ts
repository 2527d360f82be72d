import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  dir = mkdtempSync(path.join(os.tmpdir(), 'flags-watch-'));
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describeEachDatabase(
  'feature flags from a watched seller folder',
  () => {
    it('a changed flag reaches GET config without a restart, past the read cache, keeping the rest of the config', async () => {
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
        locale: 'en-US',
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
  },
  async (h) => {
    db = h.db;
    kind = h.kind;
    await insertFixtures(h.db);
  },
);

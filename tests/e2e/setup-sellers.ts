/**
 * Runs before the e2e server starts (playwright.config.ts webServer command): migrates the fresh PGlite in
 * DATA_DIR, loads the demo seller, and loads 'e2e', a copy of the demo with a short cart hold so the expiry
 * timer can run out within a test (tests/e2e/cart-timer.spec.ts), 'e2e-refunds' whose visitors may cancel paid tickets
 * (tests/e2e/after-purchase.spec.ts), copies with other login modes
 * (tests/e2e/login-sellers.ts) and 'e2e-xss', whose seller HTML carries script payloads (tests/e2e/xss-seller.ts).
 * The server then finds sellers and does not load the demo itself. It also makes the run's wallet credentials in
 * E2E_WALLET_DIR (tests/helpers/wallet-credentials.ts), which the main server reads through WALLET_CONFIG.
 *
 * The servers of the pinned-clock projects (tests/e2e/clock.spec.ts) load one seller at the server's pinned "now"
 * (TEST_NOW), so the catalogue's relative schedules start on the pinned day: the demo, which the server loads
 * itself, or 'e2e-auckland' (E2E_SELLERS=clock-auckland), a copy whose venue is in Pacific/Auckland, loaded here.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clockOf } from '../../server/clock';
import { readConfig } from '../../server/config';
import { migrateToLatest, openDatabase } from '../../server/db';
import { loadSellerFolder } from '../../server/catalog/loader';

import { AUCKLAND_SELLER } from '../helpers/instants';
import {
  BLOCKED_CODE,
  BLOCKED_SELLER,
  E2E_HOLD_SECONDS,
  E2E_SELLER,
  FLAGS_SELLER,
  LAYOUT_SELLER,
  REFUNDS_SELLER,
} from './setup-sellers-constants';
import { LOGIN_SELLERS } from './login-sellers';
import { applyXssPayloads } from './xss-seller';
import { addMembershipPeople, MEMBERS_SELLER } from './membership-seller';
import { makeTestWallet } from '../helpers/wallet-credentials';

type SellerConfig = Record<string, unknown> & { cart?: Record<string, unknown> };

/** Loads a copy of the demo folder with its config.json changed by `edit` (which may change the copy's other files). */
async function loadDemoCopy(
  db: Parameters<typeof loadSellerFolder>[0],
  demoDir: string,
  now: Date,
  edit: (config: SellerConfig, copyDir: string) => void,
) {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'seller-e2e-'));
  try {
    cpSync(demoDir, copy, { recursive: true });
    const file = path.join(copy, 'config.json');
    const sellerConfig = JSON.parse(readFileSync(file, 'utf8')) as SellerConfig;
    edit(sellerConfig, copy);
    // The copy's schema reference must still resolve from the temp folder.
    delete sellerConfig.$schema;
    writeFileSync(file, JSON.stringify(sellerConfig, null, 2));
    await loadSellerFolder(db, copy, { now });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** The demo, moved to a venue ahead of UTC: seller and every venue in Pacific/Auckland. */
function moveToAuckland(c: SellerConfig, dir: string) {
  c.slug = AUCKLAND_SELLER;
  c.name = 'E2E Auckland Museum';
  c.timezone = 'Pacific/Auckland';
  const file = path.join(dir, 'catalog.json');
  const catalog = JSON.parse(readFileSync(file, 'utf8')) as { venues: Array<{ timezone: string }> };
  for (const venue of catalog.venues) venue.timezone = 'Pacific/Auckland';
  writeFileSync(file, JSON.stringify(catalog));
}

/** A demo copy kept in `dir` for the server to watch (SELLER_WATCH_DIRS), edited by `edit` before it is loaded. */
async function loadWatchedSeller(
  db: Parameters<typeof loadSellerFolder>[0],
  demoDir: string,
  dir: string,
  now: Date,
  edit: (config: SellerConfig) => void,
) {
  cpSync(demoDir, dir, { recursive: true });
  const file = path.join(dir, 'config.json');
  const sellerConfig = JSON.parse(readFileSync(file, 'utf8')) as SellerConfig;
  edit(sellerConfig);
  delete sellerConfig.$schema;
  writeFileSync(file, JSON.stringify(sellerConfig, null, 2));
  await loadSellerFolder(db, dir, { now });
}

async function main() {
  const config = readConfig();
  const now = clockOf(config.pinnedClock)();
  const handle = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    await migrateToLatest(handle.db);
    // A pinned-clock server needs one seller: the Auckland copy for its instant, the demo for the others.
    if (process.env.E2E_SELLERS === 'clock-auckland') {
      await loadDemoCopy(handle.db, config.demoSellerDir, now, moveToAuckland);
      return;
    }
    await loadSellerFolder(handle.db, config.demoSellerDir, { now });
    // Wallet credentials made for this run (issue 17): the server reads them through WALLET_CONFIG, as a seller's would.
    if (process.env.E2E_WALLET_DIR) makeTestWallet(process.env.E2E_WALLET_DIR);
    await loadDemoCopy(handle.db, config.demoSellerDir, now, (c) => {
      c.slug = E2E_SELLER;
      c.name = 'E2E Short Hold Museum';
      c.cart = { ...(c.cart ?? {}), hold_seconds: E2E_HOLD_SECONDS };
    });
    await loadDemoCopy(handle.db, config.demoSellerDir, now, (c, dir) => {
      c.slug = BLOCKED_SELLER;
      c.name = 'E2E Press Preview Museum';
      const file = path.join(dir, 'catalog.json');
      const catalog = JSON.parse(readFileSync(file, 'utf8')) as { cart_mods: unknown[] };
      catalog.cart_mods.push(
        {
          key: 'press-preview',
          name: 'Press preview',
          discount_type: 'amount',
          discount: '0',
          ticket_types: ['general-admission/general/adult'],
          blocking_checkout: true,
          activating_code_groups: ['press'],
        },
        {
          key: 'press-pass',
          name: 'Press pass',
          discount_type: 'amount',
          discount: '0',
          codes: [{ code: BLOCKED_CODE, code_group: 'press' }],
        },
      );
      writeFileSync(file, JSON.stringify(catalog));
    });
    await loadDemoCopy(handle.db, config.demoSellerDir, now, (c) => {
      c.slug = REFUNDS_SELLER;
      c.name = 'E2E Refunds Museum';
      c.self_edit_rules = { ...(c.self_edit_rules as object), cancel_paid_tickets: true };
    });
    for (const seller of Object.values(LOGIN_SELLERS)) {
      await loadDemoCopy(handle.db, config.demoSellerDir, now, (c) => {
        c.slug = seller.slug;
        c.name = seller.name;
        c.auth = { ...(c.auth as object), ...seller.auth };
        if ('presell' in seller) c.membership_presell = seller.presell;
      });
    }
    await loadDemoCopy(handle.db, config.demoSellerDir, now, applyXssPayloads);
    // The demo as 'e2e-flags' with analytics on (consent asked).
    if (process.env.E2E_FLAGS_DIR)
      await loadWatchedSeller(handle.db, config.demoSellerDir, process.env.E2E_FLAGS_DIR, now, (c) => {
        c.slug = FLAGS_SELLER;
        c.name = 'E2E Flags Museum';
        c.analytics = { enabled: true, require_consent: true, tag_manager_id: null };
      });
    if (process.env.E2E_LAYOUT_DIR)
      await loadWatchedSeller(handle.db, config.demoSellerDir, process.env.E2E_LAYOUT_DIR, now, (c) => {
        c.slug = LAYOUT_SELLER;
        c.name = 'E2E Layout Museum';
      });
    await loadDemoCopy(handle.db, config.demoSellerDir, now, (c, dir) => {
      c.slug = MEMBERS_SELLER.slug;
      c.name = MEMBERS_SELLER.name;
      addMembershipPeople(dir);
    });
  } finally {
    await handle.close();
  }
}

await main();

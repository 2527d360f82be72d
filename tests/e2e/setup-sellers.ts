/**
 * Runs before the e2e server starts (playwright.config.ts webServer command): migrates the fresh PGlite in
 * DATA_DIR, loads the demo seller, and loads 'e2e', a copy of the demo with a short cart hold so the expiry
 * timer can run out within a test (tests/e2e/cart-timer.spec.ts). The server then finds sellers and does
 * not load the demo itself.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readConfig } from '../../server/config';
import { migrateToLatest, openDatabase } from '../../server/db';
import { loadSellerFolder } from '../../server/catalog/loader';

import { E2E_HOLD_SECONDS, E2E_SELLER } from './setup-sellers-constants';

async function main() {
  const config = readConfig();
  const handle = await openDatabase(config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir });
  const copy = mkdtempSync(path.join(os.tmpdir(), 'seller-e2e-'));
  try {
    await migrateToLatest(handle.db);
    await loadSellerFolder(handle.db, config.demoSellerDir);
    cpSync(config.demoSellerDir, copy, { recursive: true });
    const file = path.join(copy, 'config.json');
    const sellerConfig = JSON.parse(readFileSync(file, 'utf8'));
    sellerConfig.slug = E2E_SELLER;
    sellerConfig.name = 'E2E Short Hold Museum';
    sellerConfig.cart = { ...(sellerConfig.cart ?? {}), hold_seconds: E2E_HOLD_SECONDS };
    // The copy's schema reference must still resolve from the temp folder.
    delete sellerConfig.$schema;
    writeFileSync(file, JSON.stringify(sellerConfig, null, 2));
    await loadSellerFolder(handle.db, copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
    await handle.close();
  }
}

await main();

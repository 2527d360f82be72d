import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSellerFolder } from '../../server/catalog/loader';
import type { Db } from '../../server/db';
import type { AwkwardInstant } from './instants';

export const slugOf = (p: AwkwardInstant) => `tp-${p.key}`;

/** The demo, as seller `tp-{key}` with its seller and venues in the instant's zone, loaded at the instant. */
export async function loadDemoAt(db: Db, pinned: AwkwardInstant) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seller-tp-'));
  try {
    cpSync(path.resolve('sellers/demo'), dir, { recursive: true });
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
    delete config.$schema;
    Object.assign(config, { slug: slugOf(pinned), name: `Time ${pinned.key}`, timezone: pinned.venueTz });
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
    const catalog = JSON.parse(readFileSync(path.join(dir, 'catalog.json'), 'utf8'));
    delete catalog.$schema;
    for (const venue of catalog.venues) venue.timezone = pinned.venueTz;
    writeFileSync(path.join(dir, 'catalog.json'), JSON.stringify(catalog));
    await loadSellerFolder(db, dir, { now: new Date(pinned.iso) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db';
import { readSellerFolder } from './read';
import { checkSellerFolder } from './check';
import type { Ids } from './write-catalog';
import { storedConfig } from './write-people';
import { CatalogError } from './errors';

const json = (v: unknown) => JSON.stringify(v ?? null);

export interface SellerWatchOptions {
  /** seller folders (SELLER_WATCH_DIRS) the running server watches */
  dirs: string[];
  /** how often the files' modification times are looked at */
  intervalMs?: number;
  /** called after a seller's presentation was written (the API's read cache forgets its config answers) */
  onChange?: (slug: string) => void;
  onError?: (message: string) => void;
}

/** What a folder's presentation is made of: its config, its strings and its content blocks. */
function signature(dir: string): string {
  const parts: string[] = [];
  const look = (file: string) => {
    try {
      const s = statSync(file);
      parts.push(`${file}:${s.mtimeMs}:${s.size}`);
    } catch {
      parts.push(`${file}:-`);
    }
  };
  look(path.join(dir, 'config.json'));
  look(path.join(dir, 'strings.json'));
  const blocks = path.join(dir, 'content-blocks');
  try {
    for (const name of readdirSync(blocks).sort()) look(path.join(blocks, name));
  } catch {
    parts.push('no blocks');
  }
  return parts.join('|');
}

/** The ids the stored config names, read back from the database by the catalogue keys the folder uses. */
async function idsOf(db: Db, sellerId: string): Promise<Ids> {
  const [events, groups, images] = await Promise.all([
    db.selectFrom('event_template').select(['id', 'key']).where('seller_id', '=', sellerId).execute(),
    db
      .selectFrom('ticket_group as g')
      .innerJoin('event_template as e', 'e.id', 'g.event_template_id')
      .select(['g.id', 'g.key', 'e.key as event_key'])
      .where('e.seller_id', '=', sellerId)
      .execute(),
    db.selectFrom('image').select(['id', 'key']).where('seller_id', '=', sellerId).execute(),
  ]);
  return {
    sellerId,
    events: new Map(events.map((e) => [e.key, e.id])),
    groups: new Map(groups.map((g) => [`${g.event_key}/${g.key}`, g.id])),
    images: new Map(images.map((i) => [i.key, i.id])),
    venues: new Map(),
    seatMaps: new Map(),
    types: new Map(),
  };
}

/**
 * A seller's presentation without a restart or a reload (README "Seller folders on a running server"): the server
 * watches each folder of SELLER_WATCH_DIRS and, when its config.json, strings.json or content blocks change and the
 * folder still reads and checks as `npm run seller:load` would, writes the config (with its catalogue references
 * resolved to the ids already loaded), the string overrides and the content blocks into the seller row that GET config
 * reads. Open storefronts see the change on their next page load, and feature flags at their next poll. The catalogue
 * itself (events, prices, schedules, members) changes only with a load; a config that names an event, group or image
 * not loaded yet changes nothing and says so. A folder that does not read or check changes nothing (and is said in
 * the log). Any number of processes may watch: the write is the same from each. Returns the function that stops it.
 */
export function watchSellerFolders(db: Db, opts: SellerWatchOptions): () => void {
  const dirs = opts.dirs.map((dir) => path.resolve(dir));
  const onError = opts.onError ?? ((message: string) => console.warn(message));
  const seen = new Map(dirs.map((dir) => [dir, signature(dir)]));
  let chain = Promise.resolve();

  const apply = async (dir: string) => {
    let folder;
    try {
      folder = readSellerFolder(dir);
      checkSellerFolder(folder);
    } catch (error) {
      const detail = error instanceof CatalogError ? error.message : (error as Error).message;
      return onError(`${dir}: not applied, the folder does not load (${detail})`);
    }
    const slug = String(folder.config.slug);
    const row = await db
      .selectFrom('seller')
      .select(['id', 'config', 'strings', 'content_blocks'])
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!row) return onError(`${dir}: no seller '${slug}' loaded; load it first (npm run seller:load)`);
    const { config, missing } = storedConfig(folder, await idsOf(db, row.id));
    if (missing.length) return onError(`${dir}: not applied, ${missing.join(', ')} not loaded yet; load the folder (npm run seller:load)`);
    const next = { config: json(config), strings: json(folder.strings), content_blocks: json(folder.contentBlocks) };
    const same = json(row.config) === next.config && json(row.strings) === next.strings && json(row.content_blocks) === next.content_blocks;
    if (same) return;
    await db
      .updateTable('seller')
      .set({ ...next, updated_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    opts.onChange?.(slug);
  };

  const timer = setInterval(() => {
    for (const dir of dirs) {
      const now = signature(dir);
      if (now === seen.get(dir)) continue;
      seen.set(dir, now);
      // One write at a time, in the order the changes were seen.
      chain = chain.then(() => apply(dir)).catch((error: Error) => onError(`${dir}: ${error.message}`));
    }
  }, opts.intervalMs ?? 250);
  timer.unref();
  return () => clearInterval(timer);
}

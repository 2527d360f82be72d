import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db';
import { getValidators } from './read';

const json = (v: unknown) => JSON.stringify(v ?? null);

/** The config keys a running server takes from a changed config.json: the ones that need no catalogue ids. */
const LIVE_KEYS = ['flags', 'flags_poll_ms'] as const;

export interface FlagsWatchOptions {
  /** seller folders (SELLER_WATCH_DIRS) whose config.json is watched */
  dirs: string[];
  /** how often the file's modification time is checked */
  intervalMs?: number;
  /** called after a seller's flags were written (the API's read cache forgets its config answers) */
  onChange?: (slug: string) => void;
  onError?: (message: string) => void;
}

/**
 * Feature flags without a deploy or a restart (README "Feature flags"): the server watches each folder's config.json
 * and, when it changes and still validates against schemas/seller-config.schema.json, writes its `flags` and
 * `flags_poll_ms` into the seller row that GET config reads; open storefronts pick them up at their next poll. The
 * rest of the config needs the ids `npm run seller:load` resolves, so it changes only with a load. A file that does
 * not parse or validate changes nothing (and is said in the log). Any number of processes may watch: the write is
 * the same from each. Returns the function that stops watching.
 */
export function watchSellerFlags(db: Db, opts: FlagsWatchOptions): () => void {
  const files = opts.dirs.map((dir) => path.resolve(dir, 'config.json'));
  const onError = opts.onError ?? ((message: string) => console.warn(message));
  let chain = Promise.resolve();

  const apply = async (file: string) => {
    let config: Record<string, unknown>;
    try {
      config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      return onError(`${file}: not read (${(error as Error).message}); flags unchanged`);
    }
    const validate = getValidators().config;
    if (!validate(config)) return onError(`${file}: does not match the seller-config schema; flags unchanged`);
    const slug = String(config.slug);
    const row = await db.selectFrom('seller').select(['id', 'config']).where('slug', '=', slug).executeTakeFirst();
    if (!row) return onError(`${file}: no seller '${slug}' loaded; load it first (npm run seller:load)`);
    const next: Record<string, unknown> = { ...(row.config ?? {}) };
    for (const key of LIVE_KEYS) {
      if (config[key] === undefined) delete next[key];
      else next[key] = config[key];
    }
    if (LIVE_KEYS.every((key) => JSON.stringify(next[key]) === JSON.stringify(row.config?.[key]))) return;
    await db
      .updateTable('seller')
      .set({ config: json(next), updated_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    opts.onChange?.(slug);
  };

  for (const file of files) {
    watchFile(file, { interval: opts.intervalMs ?? 250 }, (current, previous) => {
      if (current.mtimeMs === previous.mtimeMs) return;
      // One write at a time, in the order the changes were seen.
      chain = chain.then(() => apply(file)).catch((error: Error) => onError(`${file}: ${error.message}`));
    });
  }
  return () => {
    for (const file of files) unwatchFile(file);
  };
}

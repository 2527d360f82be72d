import path from 'node:path';
import { writeStaff } from '../services/staff';
import { sql } from 'kysely';
import type { Db } from '../db';
import { hashPassword } from '../services/password';
import { checkSellerFolder } from './check';
import { CatalogError } from './errors';
import { planSellerFolder } from './plan';
import { readSellerFolder } from './read';
import type { SellerFolder } from './types';
import { writeEvents, writeMedia, writeSellerRow, writeSessions, type Ids } from './write-catalog';
import { ensurePublicIdentity, writeCommerce, writeConfig, writeMembers, writeMembership } from './write-people';

export { CatalogError } from './errors';
export type { CatalogIssue } from './errors';

export interface LoadResult {
  sellerId: string;
  slug: string;
  sessionsPlanned: number;
  elapsedMs: number;
}

/** Passwords of members who have no user yet, hashed before the transaction (scrypt is slow on purpose). */
async function hashNewPasswords(db: Db, folder: SellerFolder): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const members = (folder.catalog.members ?? []).filter((m) => m.password);
  if (!members.length) return hashes;
  const seller = await db.selectFrom('seller').select('id').where('slug', '=', folder.config.slug).executeTakeFirst();
  const existing = new Set(
    seller
      ? (
          await db
            .selectFrom('app_user')
            .select(sql<string>`lower(email)`.as('email'))
            .where('seller_id', '=', seller.id)
            .execute()
        ).map((u) => u.email)
      : [],
  );
  for (const m of members) {
    const email = m.email.toLowerCase();
    if (!existing.has(email)) hashes.set(email, await hashPassword(m.password!));
  }
  return hashes;
}

/**
 * Validates a seller folder (schemas, then cross references, then schedule expansion) and writes it in ONE
 * transaction. Loading again updates rows in place by key and adds missing sessions; it never deletes sessions,
 * tickets or anything an order references. Throws CatalogError (nothing written) for a bad folder.
 */
export async function loadSellerFolderDetailed(db: Db, dir: string, opts: { now?: Date } = {}): Promise<LoadResult> {
  const started = performance.now();
  const now = opts.now ?? new Date();
  const folder = readSellerFolder(path.resolve(dir));
  checkSellerFolder(folder);
  const plan = planSellerFolder(folder, now);
  const passwordHashes = await hashNewPasswords(db, folder);
  const { sellerId, sessionsPlanned } = await db.transaction().execute(async (tx) => {
    const sellerId = await writeSellerRow(tx, folder);
    const media = await writeMedia(tx, sellerId, folder, plan);
    const ids: Ids = { sellerId, ...media, events: new Map(), groups: new Map(), types: new Map() };
    await writeEvents(tx, folder, plan, ids);
    const sessionsPlanned = await writeSessions(tx, plan, ids);
    const roles = await writeMembership(tx, folder, ids);
    await writeCommerce(tx, folder, plan, ids);
    await ensurePublicIdentity(tx, sellerId);
    await writeMembers(tx, folder, plan, ids, roles, passwordHashes);
    await writeConfig(tx, folder, ids);
    await writeStaff(tx, sellerId, folder.staff);
    return { sellerId, sessionsPlanned };
  });
  await analyzeCatalogue(db);
  return { sellerId, slug: folder.config.slug, sessionsPlanned, elapsedMs: Math.round(performance.now() - started) };
}

/**
 * The tables a load writes in bulk, whose planner statistics it leaves stale: a new database has none at all until
 * autovacuum's first round (a minute or more on PostgreSQL), and PGlite runs no autovacuum, so without this its
 * planner never has any. Without statistics the calendar's statement looks up each session's group rows one by one
 * (PGlite calendar 59-68 requests/s against 75-92 with them, 50 clients, `READ_CACHE_MS=0`).
 */
const BULK_TABLES = ['event_session', 'session_ticket_group', 'ticket_type', 'ticket_group', 'event_template', 'ticket_rule', 'seat'];

async function analyzeCatalogue(db: Db): Promise<void> {
  await sql`analyze ${sql.join(BULK_TABLES.map((t) => sql.table(t)))}`.execute(db);
}

export async function loadSellerFolder(db: Db, dir: string, opts: { now?: Date } = {}): Promise<{ sellerId: string; slug: string }> {
  const { sellerId, slug } = await loadSellerFolderDetailed(db, dir, opts);
  return { sellerId, slug };
}

export function isCatalogError(err: unknown): err is CatalogError {
  return err instanceof CatalogError;
}

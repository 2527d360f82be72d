import { BOOT_DATA_ID, readKey, type BootData } from '../contract/first-reads';

/** How long after the page arrived its answers may stand in for a read: they are for the first screen only. */
export const PRIMED_READS_TTL_MS = 10_000;

let primed = new Map<string, unknown>();
let primedUntil = 0;

/** The page's boot data (server/http/index-html.ts), or null when the page came without it (the dev server, a
 *  failed read on the server, a stale cached page). */
export function readBootData(doc: Document = document): BootData | null {
  const text = doc.getElementById(BOOT_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<BootData>;
    return data.deployment && data.reads && typeof data.reads === 'object' ? (data as BootData) : null;
  } catch {
    return null;
  }
}

/** Keeps the page's answers for the client: each stands in for its read once, within PRIMED_READS_TTL_MS. */
export function primeReads(reads: Record<string, unknown>, now = Date.now()): void {
  primed = new Map(Object.entries(reads));
  primedUntil = now + PRIMED_READS_TTL_MS;
}

/** The page's answer to the GET at `url` (taken: a second read of it goes to the network), or undefined. */
export function takePrimedRead(url: string, now = Date.now()): unknown {
  if (primed.size === 0) return undefined;
  if (now > primedUntil) {
    primed.clear();
    return undefined;
  }
  const key = readKey(url);
  const body = primed.get(key);
  if (body !== undefined) primed.delete(key);
  return body;
}

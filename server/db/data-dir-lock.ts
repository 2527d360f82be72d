import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One writer per embedded database (issue 20, finding 5): PGlite keeps its own buffer cache per process, so two
 * processes on one DATA_DIR each believe their copy and one's committed writes (paid orders) can vanish. The process
 * that opens the folder writes a lock file with its PID into it; another one refuses, naming the holder. A lock whose
 * process is gone (killed) is stale and taken over.
 */
export const LOCK_FILE = 'storefront.lock';

interface Holder {
  pid: number;
  host: string;
  since: string;
  command: string;
  token?: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: Holder,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${holder.pid} (${holder.command}, since ${holder.since}). ` +
        'Only one process may open it: stop that process first (or run on PostgreSQL with DATABASE_URL, which any number ' +
        'of processes may share).',
    );
    this.name = 'DataDirInUseError';
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(fs.readFileSync(file, 'utf8')) as Holder;
    return Number.isInteger(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

/** Takes the folder's lock for this process; returns the function that gives it back. Throws DataDirInUseError. */
export function lockDataDir(
  dir: string,
  command = process.argv
    .slice(1)
    .map((a) => path.basename(a))
    .join(' '),
): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: os.hostname(), since: new Date().toISOString(), command, token: randomUUID() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // Only this opening's own lock: not one a later opener took over.
        if (readHolder(file)?.token === me.token) fs.rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(file);
      // Another live process here (or this one, through a second handle) holds it; a lock of another machine sharing
      // the folder cannot be checked and is respected too.
      if (holder && (holder.host !== me.host || alive(holder.pid))) throw new DataDirInUseError(dir, holder);
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new DataDirInUseError(dir, readHolder(file) ?? { pid: -1, host: '?', since: '?', command: '?' });
}

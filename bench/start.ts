/**
 * Start time (issue 19, goal 4): `npm start` on a tree whose storefront and server are already built, timed from
 * the spawn of `npm start` until the storefront's page (GET /) answers 200. The first start on a new data folder
 * (migrations and the demo seller's load) is reported apart; then `runs` starts on that same folder, median and
 * worst. Each start is stopped with SIGTERM to its process group, as a terminal's Ctrl-C would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../tests/helpers/free-port';

export interface StartResult {
  firstStartMs: number;
  startsMs: number[];
  medianMs: number;
  worstMs: number;
}

export const START_TARGET_MS = 2000;

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/** SIGTERM to the whole group, then wait until every process of it is gone: npm may exit before the server it
 *  started has closed the database, and the next start would find the data folder still in use. */
async function stopGroup(pgid: number, exited: Promise<void>) {
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGTERM');
  await exited;
  while (groupAlive(pgid)) await new Promise((r) => setTimeout(r, 20));
}

async function timeOneStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode} before answering`);
      const ok = await fetch(`http://127.0.0.1:${port}/`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) return Math.round(performance.now() - started);
      if (performance.now() - started > 120_000) throw new Error('npm start did not answer within 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    await stopGroup(child.pid!, exited);
  }
}

export async function measureStart(runs = 5): Promise<StartResult> {
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  const firstStartMs = await timeOneStart(dataDir);
  const startsMs: number[] = [];
  for (let i = 0; i < runs; i++) startsMs.push(await timeOneStart(dataDir));
  const sorted = [...startsMs].sort((a, b) => a - b);
  return { firstStartMs, startsMs, medianMs: sorted[Math.floor(sorted.length / 2)], worstMs: sorted[sorted.length - 1] };
}

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../../server/db';
import { DataDirInUseError, LOCK_FILE } from '../../server/db/data-dir-lock';

/** Issue 20, finding 5: a second server (or seller:load) on the same DATA_DIR started and served, and paid orders
 *  taken by one process were gone after both stopped. One writer per embedded database now. */
describe('one process per embedded database folder', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'datadir-lock-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('a second opener is refused, naming the holder; the folder is free again once closed', async () => {
    const dir = path.join(root, 'a');
    const first = await openDatabase({ dataDir: dir });
    const holder = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
    expect(holder.pid).toBe(process.pid);
    const second = openDatabase({ dataDir: dir });
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(new RegExp(`in use by process ${process.pid}`));
    await first.close();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  }, 60_000);

  it('a lock left by a killed process is stale and taken over', async () => {
    const dir = path.join(root, 'b');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    await (await openDatabase({ dataDir: dir })).close();
    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ pid: deadPid, host: os.hostname(), since: '2026-01-01T00:00:00Z', command: 'main.ts' }),
    );
    const handle = await openDatabase({ dataDir: dir });
    expect(JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await handle.close();
  }, 60_000);

  it('npm run seller:load beside a running server refuses with the holder named, and writes nothing', async () => {
    const dir = path.join(root, 'c');
    const held = await openDatabase({ dataDir: dir });
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/catalog/cli.ts', 'sellers/demo'], {
      env: { ...process.env, DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(output).toContain(`is in use by process ${process.pid}`);
    expect(output).not.toContain('loaded seller');
    const sellers = await held.db
      .selectFrom('seller')
      .select('id')
      .execute()
      .catch(() => []);
    expect(sellers).toEqual([]);
    await held.close();
    // Afterwards the folder opens again as the server would open it at its next start (issue 18: never corrupted).
    const again = await openDatabase({ dataDir: dir });
    await migrateToLatest(again.db);
    expect(await again.db.selectFrom('seller').select('id').execute()).toEqual([]);
    await again.close();
  }, 60_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/free-port';

/**
 * A server of a spec's own, on a fresh database, for what the suite's server is not started with (Stripe's keys, an
 * address provider, an identity provider): the real server from its sources, serving the build in dist/. `stop()` ends it.
 */
export async function startOwnServer(
  name: string,
  env: Record<string, string>,
  /** a port chosen beforehand (a provider the spec starts first must know the server's address) */
  port?: number,
): Promise<{ baseURL: string; stop: () => void }> {
  port ??= await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `storefront-e2e-${name}-`)),
      STATIC_DIR: path.resolve(process.env.E2E_STATIC_DIR ?? 'dist'),
      LOG_LEVEL: 'warn',
      PUBLIC_URL: baseURL,
      ...env,
    },
    stdio: 'ignore',
  });
  for (const deadline = Date.now() + 100_000; ;) {
    try {
      if ((await fetch(`${baseURL}/storefront-config.json`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      server.kill('SIGTERM');
      throw new Error(`the ${name} server did not start`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { baseURL, stop: () => void server.kill('SIGTERM') };
}

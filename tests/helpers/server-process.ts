import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A fresh PostgreSQL database on the server of `adminUrl` (e.g. TEST_DATABASE_URL); drop() removes it. */
export async function createScratchDatabase(adminUrl: string, prefix = 'scratch'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try { await admin.query(`CREATE DATABASE ${name}`); } finally { await admin.end(); }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try { await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`); } finally { await c.end(); }
    },
  };
}

export interface ServerProcess {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  /** SIGKILL: no shutdown hook runs, in-flight requests are cut. Resolves when the process is gone. */
  kill: () => Promise<void>;
  /** SIGTERM and wait for the graceful shutdown. */
  stop: () => Promise<void>;
}

/**
 * Start the real server (`tsx server/main.ts`) as a child process and wait until it answers. `env` adds to or
 * overrides the defaults: a free PORT, HOST 127.0.0.1, a temp DATA_DIR, STATIC_DIR (default: dist),
 * LOG_LEVEL warn. Pass DATABASE_URL for PostgreSQL; the same env again restarts on the same data.
 */
export async function startServer(env: Record<string, string | undefined> = {}, timeoutMs = 60_000): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const fullEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'storefront-proc-')),
    STATIC_DIR: path.resolve('dist'),
    LOG_LEVEL: 'warn',
    ...env,
    PORT: String(port),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: fullEnv, cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering:\n${out}`);
    try {
      const res = await fetch(`${baseUrl}/storefront-config.json`);
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`server did not answer within ${timeoutMs} ms:\n${out}`); }
    await new Promise((r) => setTimeout(r, 100));
  }

  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { baseUrl, port, child, output: () => out, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

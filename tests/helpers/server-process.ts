import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { OWNER_COOKIE } from '../../server/services/cart/access';
import { ECOMM } from './app';
import { freePort } from './free-port';

export { freePort };

/** A fresh PostgreSQL database on the server of `adminUrl` (e.g. TEST_DATABASE_URL); drop() removes it. */
export async function createScratchDatabase(
  adminUrl: string,
  prefix = 'scratch',
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
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
 * Start the real server (`node --import tsx server/main.ts`, one process, so SIGKILL leaves nothing behind) and
 * wait until it answers. `env` adds to or overrides the defaults: a free PORT, HOST 127.0.0.1, STATIC_DIR dist,
 * LOG_LEVEL warn, and a new temp DATA_DIR unless DATABASE_URL or DATA_DIR is given. Pass DATABASE_URL for
 * PostgreSQL; the same env again (with PORT: the old port, to keep the address) restarts on the same data.
 */
export async function startServer(env: Record<string, string | undefined> = {}, timeoutMs = 60_000): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const fullEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    ...(env.DATABASE_URL || env.DATA_DIR ? {} : { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'storefront-proc-')) }),
    STATIC_DIR: path.resolve('dist'),
    LOG_LEVEL: 'warn',
    ...env,
    PORT: String(port),
  };
  // SERVER_CPU_PROF_DIR (bench/run.ts): each server writes a V8 CPU profile there when it stops.
  const profile = process.env.SERVER_CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SERVER_CPU_PROF_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/main.ts'], {
    env: fullEnv,
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering:\n${out}`);
    try {
      const res = await fetch(`${baseUrl}/storefront-config.json`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
    await exited;
  };
  return { baseUrl, port, child, output: () => out, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
}

/**
 * A browser over real HTTP, like the storefront's axios instance: sends the X-Ticketing-App header and keeps
 * the cart-owner cookie. Network failures (a killed server) and answers slower than `timeoutMs` reject; any
 * HTTP status resolves.
 */
export class HttpBrowser {
  cookie: string | null = null;
  /** `forwardedFor`: the visitor's own address, sent as a trusted proxy would (a server started with TRUST_PROXY=1). */
  constructor(
    public baseUrl: string,
    private readonly timeoutMs = 30_000,
    private readonly forwardedFor?: string,
  ) {}

  async request(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        ...ECOMM,
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.forwardedFor ? { 'x-forwarded-for': this.forwardedFor } : {}),
      },
      body: payload !== undefined ? JSON.stringify(payload) : undefined,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${OWNER_COOKIE}=`));
    if (set) this.cookie = set.split(';')[0];
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text };
  }
  get(url: string) {
    return this.request('GET', url);
  }
  post(url: string, payload: unknown = {}) {
    return this.request('POST', url, payload);
  }
  delete(url: string) {
    return this.request('DELETE', url);
  }
}

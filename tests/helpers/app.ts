import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Deps } from '../../server/deps';
import type { DbHandle } from '../../server/db';

/** A clock tests can move: `clock.advance(seconds)`. */
export function testClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (seconds: number) => {
      now += seconds * 1000;
    },
    set: (d: Date) => {
      now = d.getTime();
    },
  };
}

export function testDeps(handle: DbHandle, now: () => Date = () => new Date()): Deps {
  // Tests write to the database directly and read at once: the read cache is off unless a test turns it on.
  return {
    db: handle.db,
    dbKind: handle.kind,
    config: { ...readConfig({}), staticDir: '/nonexistent', ssrDir: '/nonexistent', readCacheMs: 0 },
    now,
  };
}

/** The app as served, ready for inject(). */
export async function buildTestApp(deps: Deps): Promise<FastifyInstance> {
  const app = await buildApp(deps);
  await app.ready();
  return app;
}

export const ECOMM = { 'x-ticketing-app': 'ecomm' };

/** A browser: keeps the owner-token cookie between requests, like the storefront's axios instance. */
export class Browser {
  cookie: string | null = null;
  /** `address`: the client's network address (the socket's, as the server sees it); default 127.0.0.1. */
  constructor(
    private readonly app: FastifyInstance,
    private readonly address?: string,
  ) {}
  async request(method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = {}) {
    const res = await this.app.inject({
      method,
      url,
      ...(this.address ? { remoteAddress: this.address } : {}),
      ...(payload !== undefined ? { payload: payload as object } : {}),
      headers: { ...ECOMM, ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
    });
    const set = res.cookies.find((c) => c.name === 'storefront_cart_owner');
    if (set) this.cookie = `${set.name}=${set.value}`;
    return { status: res.statusCode, body: res.headers['content-type']?.toString().includes('json') ? res.json() : res.rawPayload, res };
  }
  get(url: string, headers: Record<string, string> = {}) {
    return this.request('GET', url, undefined, headers);
  }
  post(url: string, payload: unknown = {}) {
    return this.request('POST', url, payload);
  }
  delete(url: string) {
    return this.request('DELETE', url);
  }
  patch(url: string, payload: unknown = {}) {
    return this.request('PATCH', url, payload);
  }
}

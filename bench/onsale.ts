/**
 * On-sale load (issue 19) through the real HTTP API: buyers that each, again and again, start a new cart with tickets
 * of one session (a fresh visitor from an address of its own, as the public arrives), measured against the baseline
 * endpoint (bench/baseline-server.ts: one guarded UPDATE over HTTP on the same database stack). Afterwards the
 * database says whether anything was oversold.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { Pool } from 'undici';
import type { Db } from '../server/db';
import { freePort } from '../tests/helpers/server-process';

/** The bench's events (link-only, so the read benchmarks see the demo as it is), one session each, tomorrow. */
export const EVENTS = { throughput: 'bench-onsale', sellout: 'bench-sellout', sellout2: 'bench-sellout-two' } as const;
export const THROUGHPUT_CAPACITY = 10_000_000;
export const SELLOUT_CAPACITY = 10_000;

/** A temp copy of sellers/demo (slug 'demo') with the bench's events; give its dir as DEMO_SELLER_DIR. */
export function makeBenchSeller(demoDir = 'sellers/demo'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seller-bench-'));
  cpSync(demoDir, dir, { recursive: true });
  const file = path.join(dir, 'catalog.json');
  const catalog = JSON.parse(readFileSync(file, 'utf8')) as { $schema?: string; events: unknown[] };
  // The schema reference is relative to sellers/demo and does not resolve from the temp folder.
  delete catalog.$schema;
  const event = (key: string, capacity: number, time: string) => ({
    key,
    name: `On-Sale ${key}`,
    category: 'performance',
    event_type: 'repeating',
    hidden_type: 'public_link_only',
    venue: 'main',
    ticket_groups: [
      {
        key: 'general',
        name: 'General',
        handler: 'tickets',
        max_tickets_per_order: 10,
        types: [{ key: 'adult', name: 'Adult', price: '10.00' }],
      },
    ],
    schedules: [{ times: [time], duration_minutes: 120, dates: { from: '+1d', to: '+1d' }, capacity }],
  });
  catalog.events.push(
    event(EVENTS.throughput, THROUGHPUT_CAPACITY, '19:00'),
    event(EVENTS.sellout, SELLOUT_CAPACITY, '20:00'),
    event(EVENTS.sellout2, SELLOUT_CAPACITY, '21:00'),
  );
  writeFileSync(file, JSON.stringify(catalog, null, 2));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Target {
  sessionId: string;
  typeId: string;
}

/** The session and ticket type of a bench event. */
export async function benchTarget(db: Db, key: string): Promise<Target> {
  const { rows } = await sql<{ session_id: string; type_id: string }>`
    select s.id as session_id, tt.id as type_id from event_template e
    join event_session s on s.event_template_id = e.id
    join ticket_group g on g.event_template_id = e.id
    join ticket_type tt on tt.ticket_group_id = g.id
    where e.key = ${key}`.execute(db);
  if (rows.length !== 1) throw new Error(`expected one session and one ticket type of '${key}', found ${rows.length}`);
  return { sessionId: rows[0].session_id, typeId: rows[0].type_id };
}

export interface LoadResult {
  clients: number;
  seconds: number;
  /** Answers per second (all of them: reserved, sold out, errors). */
  requestsPerSecond: number;
  /** Successful tickets per second. */
  ticketsPerSecond: number;
  tickets: number;
  reservations: number;
  soldOut: number;
  /** Anything but 200 and a sold-out 409, by status and code. */
  errors: Record<string, number>;
  errorCount: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
const SOLD_OUT = new Set(['event_session_sold_out', 'session_capacity_exceeded']);
let nextAddress = 0;
/** A client address of its own per request (the servers run with TRUST_PROXY=127.0.0.1). */
const address = () => {
  const n = nextAddress++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** The buyers' connections, one per client over `urls`, kept from one drive() to the next when given to it. */
export interface Connections {
  pools: Pool[];
  close: () => Promise<void>;
}

/**
 * A warm-up and the run it prepares share their connections: on a PGlite server busy with the warm-up's load, 200
 * connections opened at once waited 2-9 s for their first answers (the server logged none slower than 2 s: the wait
 * came before it read them), which put a steady run's p99 at 10 s.
 */
export function openConnections(urls: string[], clients: number): Connections {
  const pools = urls.map((url) => new Pool(url, { connections: Math.ceil(clients / urls.length) }));
  return {
    pools,
    close: async () => {
      await Promise.all(pools.map((pool) => pool.close()));
    },
  };
}

/**
 * `clients` loops at once over `urls` (client i on urls[i % n]); each request is POSTed and timed. Runs `seconds`,
 * or with `untilSoldOut` until every client has been told the session is sold out.
 *
 * The requests go through undici's Pool, one connection per client, not `fetch`: the load runs on the same two cores
 * as the server and the database, and fetch's WHATWG layers cost the load 1.3-2.1 ms of CPU per request where the
 * pool costs 0.3-0.4 ms (a scratch A/B, 200 buyers on PostgreSQL), time the bench charged to the server.
 */
export async function drive(
  urls: string[],
  clients: number,
  request: (base: string) => { path: string; body: unknown },
  opts: { seconds?: number; untilSoldOut?: boolean; ticketsPerRequest?: number; connections?: Connections },
): Promise<LoadResult> {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let reservations = 0;
  let soldOut = 0;
  const pools = opts.connections?.pools ?? openConnections(urls, clients).pools;
  const start = performance.now();
  const end = start + (opts.seconds ?? 3600) * 1000;
  try {
    await Promise.all(
      Array.from({ length: clients }, async (_, i) => {
        const base = urls[i % urls.length];
        const pool = pools[i % urls.length];
        while (performance.now() < end) {
          const { path: p, body } = request(base);
          const t0 = performance.now();
          let status = 0;
          let code = '';
          let failure = '';
          try {
            const res = await pool.request({
              path: p,
              method: 'POST',
              headers: { 'x-ticketing-app': 'ecomm', 'content-type': 'application/json', 'x-forwarded-for': address() },
              body: JSON.stringify(body),
            });
            status = res.statusCode;
            const text = await res.body.text();
            if (status !== 200) code = (JSON.parse(text) as { _data?: Array<{ _code?: string }> })._data?.[0]?._code ?? '';
          } catch (error) {
            // no answer (status stays 0): what the pool gave up on, e.g. UND_ERR_CONNECT_TIMEOUT or ECONNRESET
            failure = (error as { code?: string }).code ?? (error as Error).name;
          }
          latencies.push(performance.now() - t0);
          if (status === 200) reservations++;
          else if (status === 409 && SOLD_OUT.has(code)) {
            soldOut++;
            if (opts.untilSoldOut) return;
          } else {
            const key = status === 0 ? `no answer ${failure}`.trim() : `${status} ${code}`.trim();
            errors[key] = (errors[key] ?? 0) + 1;
            if (opts.untilSoldOut) return;
          }
        }
      }),
    );
  } finally {
    if (!opts.connections) await Promise.all(pools.map((pool) => pool.close()));
  }
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const tickets = reservations * (opts.ticketsPerRequest ?? 1);
  return {
    clients,
    seconds: Math.round(seconds * 10) / 10,
    requestsPerSecond: Math.round(latencies.length / seconds),
    ticketsPerSecond: Math.round(tickets / seconds),
    tickets,
    reservations,
    soldOut,
    errors,
    errorCount: Object.values(errors).reduce((a, b) => a + b, 0),
    p50Ms: Math.round(percentile(latencies, 50)),
    p99Ms: Math.round(percentile(latencies, 99)),
  };
}

/**
 * Seconds of the same load, not counted, before each measured on-sale run. A server just started runs its first
 * seconds cold (V8 has not compiled the request path yet; each pooled PostgreSQL connection has yet to fill its caches
 * and plan the reservation's prepared statement), and so do PostgreSQL and the load generator. Five 5-second runs in
 * a row on one new server gave 427, 730, 828, 831 and 808 tickets/s, the CPU per reservation falling from 2.07 to
 * 0.86-0.87 ms in the server, 1.35 to 0.92-0.93 ms in PostgreSQL, 0.71 to 0.20-0.23 ms in the load generator. The
 * bench used to measure the first ten seconds, which no on-sale meets: its server has been up for days.
 */
export const WARMUP_SECONDS = 10;

/** A new guest cart with `tickets` tickets of the target's session. */
export const reserve = (t: Target, tickets: number) => () => ({
  path: '/api/cart/modify?_seller=demo',
  body: { add: Array.from({ length: tickets }, () => ({ event_session_id: t.sessionId, ticket_type_id: t.typeId })) },
});

export interface Oversell {
  capacity: number;
  used: number;
  /** live tickets (held in carts or sold) of the session */
  live: number;
  oversold: number;
  /** the counter and the tickets agree, and neither passes the capacity */
  consistent: boolean;
}

export async function oversell(db: Db, sessionId: string): Promise<Oversell> {
  const { rows } = await sql<{ capacity: number; used: number; live: number }>`
    select s.capacity, s.used_capacity as used,
      (select count(*)::int from ticket t where t.event_session_id = s.id and t.state in ('in_cart', 'held', 'booked', 'redeemed')) as live
    from event_session s where s.id = ${sessionId}`.execute(db);
  const { capacity, used, live } = rows[0];
  return { capacity, used, live, oversold: Math.max(0, live - capacity, used - capacity), consistent: used === live && used <= capacity };
}

/** Starts bench/baseline-server.ts on PostgreSQL (`databaseUrl`) or PGlite (none); stop() ends it. */
export async function startBaseline(databaseUrl?: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl ?? '' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/baseline-server.ts'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`baseline server exited with ${child.exitCode}`);
    const up = await fetch(`${url}/baseline`, { method: 'POST' }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 300) throw new Error('baseline server did not answer');
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const baselineRequest = () => ({ path: '/baseline', body: {} });

/**
 * On-sale contention on PostgreSQL: BUYERS shoppers at once, each putting 2 tickets of the same session
 * (capacity CAPACITY) in a new cart through the real HTTP API, then checking out with the test card. Measured
 * against the bare database limit: the same number of guarded `UPDATE ... SET used = used + 2` on one row.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const BUYERS = 2000;
export const CAPACITY = 500;
export const TICKETS_PER_BUYER = 2;
const EVENT_KEY = 'bench-onsale';
const ECOMM = { 'X-Ticketing-App': 'ecomm', 'Content-Type': 'application/json' };

/**
 * A temp copy of sellers/demo (slug 'demo') with one more event: link-only (not in the listing, so the read
 * benchmarks see the demo as it is), one session tomorrow of capacity CAPACITY, one ticket type, no survey.
 * Give its dir as DEMO_SELLER_DIR to a server on an empty database.
 */
export function makeBenchSeller(demoDir = 'sellers/demo'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seller-bench-'));
  cpSync(demoDir, dir, { recursive: true });
  const edit = (file: string, change: (json: Record<string, unknown>) => void) => {
    const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<string, unknown>;
    // The schema references are relative to sellers/demo and do not resolve from the temp folder.
    delete json.$schema;
    change(json);
    writeFileSync(path.join(dir, file), JSON.stringify(json, null, 2));
  };
  edit('config.json', () => {});
  edit('catalog.json', (catalog) => {
    (catalog.events as unknown[]).push({
      key: EVENT_KEY,
      name: 'On-Sale Night',
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
      schedules: [{ times: ['19:00'], duration_minutes: 120, dates: { from: '+1d', to: '+1d' }, capacity: CAPACITY }],
    });
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface OnsaleResult {
  buyers: number;
  capacity: number;
  /** Reserve answers (cart created with the tickets, or sold out) per second over the reserve phase. */
  reservationsPerSecond: number;
  reserveP50Ms: number;
  reserveP99Ms: number;
  reserved: number;
  soldOut: number;
  /** Answers other than 200 and 409, by status. */
  reserveErrors: Record<string, number>;
  checkoutsOk: number;
  checkoutErrors: Record<string, number>;
  /** Booked tickets of the session, from the database afterwards. */
  ticketsSold: number;
  oversold: number;
  sessionUsed: number;
  usedWithinCapacity: boolean;
  /** Most connections the server held to the database during the run (pg_stat_activity). */
  serverConnections: number;
  wallSeconds: number;
}

export interface BareResult {
  statements: number;
  connections: number;
  statementsPerSecond: number;
  succeeded: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
const round1 = (n: number) => Math.round(n * 10) / 10;
const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};

/** POST with the storefront's header; status 0 when no answer came (connection refused or reset). */
async function post(url: string, body: unknown, cookie?: string) {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { ...ECOMM, ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    });
    text = await response.text();
  } catch {
    return { status: 0, json: null, cookie: '' };
  }
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* an error page: the status says enough */
  }
  return {
    status: response.status,
    json,
    cookie: response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
}

/** One shopper: a new cart with 2 tickets; if they were reserved, the purchaser's details and the card payment. */
async function buyer(baseUrl: string, i: number, sessionId: string, typeId: string, onReserved: (ms: number, status: number) => void) {
  const line = { event_session_id: sessionId, ticket_type_id: typeId };
  const start = performance.now();
  const reserve = await post(`${baseUrl}/api/cart/modify?_seller=demo`, { add: Array(TICKETS_PER_BUYER).fill(line) });
  onReserved(performance.now() - start, reserve.status);
  if (reserve.status !== 200) return { reserve: reserve.status, checkout: null };
  const cart = reserve.json.cart._data[0];
  const email = `buyer${i}@example.com`;
  const user = await post(
    `${baseUrl}/api/user?_seller=demo`,
    { first_name: 'Bench', last_name: `Buyer ${i}`, email, email_confirm: email },
    reserve.cookie,
  );
  if (user.status !== 200) return { reserve: 200, checkout: `user ${user.status}` };
  const paid = await post(
    `${baseUrl}/api/cart/${cart.id}/guest_checkout`,
    {
      amount: cart.cart_fees.grand_totals.total_outstanding,
      gateway_id: 'test',
      send_email: true,
      guest_identity_id: user.json.identity._data[0].identity_id,
      gateway_data: { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 5, cvc: '123' } },
    },
    reserve.cookie,
  );
  return { reserve: 200, checkout: paid.status === 200 ? 'ok' : `checkout ${paid.status} ${paid.json?._code ?? ''}`.trim() };
}

/** Runs the on-sale against the server at `baseUrl`, whose database is `databaseUrl` (loaded from makeBenchSeller). */
export async function runOnsale(baseUrl: string, databaseUrl: string): Promise<OnsaleResult> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      `
      select s.id as session_id, tt.id as type_id from event_template e
      join event_session s on s.event_template_id = e.id
      join ticket_group g on g.event_template_id = e.id
      join ticket_type tt on tt.ticket_group_id = g.id
      where e.key = $1`,
      [EVENT_KEY],
    );
    if (rows.length !== 1) throw new Error(`expected one session and one ticket type of '${EVENT_KEY}', found ${rows.length}`);
    const { session_id: sessionId, type_id: typeId } = rows[0] as { session_id: string; type_id: string };

    // The server's connections to its database, sampled through the run.
    let serverConnections = 0;
    const sample = async () => {
      const r = await db.query(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      serverConnections = Math.max(serverConnections, r.rows[0].n);
    };
    const sampler = setInterval(() => {
      sample().catch(() => {});
    }, 100);

    const latencies: number[] = [];
    const reserveErrors: Record<string, number> = {};
    let reserved = 0;
    let soldOut = 0;
    let lastAnswer = 0;
    const start = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: BUYERS }, (_, i) =>
        buyer(baseUrl, i, sessionId, typeId, (ms, status) => {
          latencies.push(ms);
          lastAnswer = performance.now();
          if (status === 200) reserved++;
          else if (status === 409) soldOut++;
          else bump(reserveErrors, status === 0 ? 'no answer' : String(status));
        }),
      ),
    );
    const wallSeconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    await sample();

    const checkoutErrors: Record<string, number> = {};
    let checkoutsOk = 0;
    for (const o of outcomes) {
      if (o.checkout === 'ok') checkoutsOk++;
      else if (o.checkout) bump(checkoutErrors, o.checkout);
    }
    const after = (
      await db.query(
        `
      select s.capacity, s.used_capacity,
        (select count(*)::int from ticket t where t.event_session_id = s.id and t.state = 'booked') as sold
      from event_session s where s.id = $1`,
        [sessionId],
      )
    ).rows[0] as { capacity: number; used_capacity: number; sold: number };

    latencies.sort((a, b) => a - b);
    const reservePhase = (lastAnswer - start) / 1000;
    return {
      buyers: BUYERS,
      capacity: after.capacity,
      reservationsPerSecond: Math.round((reserved + soldOut) / reservePhase),
      reserveP50Ms: Math.round(percentile(latencies, 50)),
      reserveP99Ms: Math.round(percentile(latencies, 99)),
      reserved,
      soldOut,
      reserveErrors,
      checkoutsOk,
      checkoutErrors,
      ticketsSold: after.sold,
      oversold: Math.max(0, after.sold - after.capacity),
      sessionUsed: after.used_capacity,
      usedWithinCapacity: after.used_capacity <= after.capacity,
      serverConnections,
      wallSeconds: round1(wallSeconds),
    };
  } finally {
    await db.end();
  }
}

/**
 * The bare database limit: `statements` guarded updates of one row (capacity CAPACITY, +2 each) in autocommit,
 * spread over `connections` connections that all start together.
 */
export async function bareLimit(databaseUrl: string, connections: number, statements = BUYERS): Promise<BareResult> {
  const setup = new pg.Client({ connectionString: databaseUrl });
  await setup.connect();
  await setup.query('create table bench_bare (id int primary key, capacity int not null, used int not null default 0)');
  await setup.query('insert into bench_bare (id, capacity) values (1, $1)', [CAPACITY]);
  const clients = Array.from({ length: connections }, () => new pg.Client({ connectionString: databaseUrl }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
    let next = 0;
    let succeeded = 0;
    const start = performance.now();
    await Promise.all(
      clients.map(async (c) => {
        while (next < statements) {
          next++;
          const r = await c.query(
            `update bench_bare set used = used + ${TICKETS_PER_BUYER} where id = 1 and used + ${TICKETS_PER_BUYER} <= capacity`,
          );
          succeeded += r.rowCount ?? 0;
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const used = (await setup.query('select used from bench_bare where id = 1')).rows[0].used as number;
    if (used > CAPACITY || used !== succeeded * TICKETS_PER_BUYER) throw new Error(`bare limit: used ${used} after ${succeeded} updates`);
    return { statements, connections, statementsPerSecond: Math.round(statements / seconds), succeeded };
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
    await setup.query('drop table if exists bench_bare');
    await setup.end();
  }
}

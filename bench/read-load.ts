/**
 * Read load: the three reads the storefront's browse and reserve screens make and the event's page, each hammered by 50
 * concurrent clients (autocannon) for BENCH_SECONDS (default 10), with the exact queries the storefront sends (src/api/events.ts)
 * and the Accept-Encoding a browser sends, so that an answer costs what it costs a browser (compressed); and the
 * calendar read again beside an on-sale's buyers.
 */
import autocannon, { type Result as LoadRun } from 'autocannon';
import { venueDatePlus } from '../tests/e2e/helpers';
import { drive, reserve, type Target } from './onsale';

export interface ReadLoadRow {
  database: string;
  endpoint: string;
  path: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** the buyers reserving meanwhile (the row beside an on-sale) */
  buyers?: { clients: number; ticketsPerSecond: number; p50Ms: number; errorCount: number; errors: Record<string, number> };
}

export const CONNECTIONS = 50;
/** What Chromium sends. */
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
/** Buyers beside the calendar's readers in the last row. */
export const BESIDE_BUYERS = 50;

/** The demo's timed admission event and its venue timezone, from the API. */
async function admissionEvent(baseUrl: string): Promise<{ eventId: string; timezone: string }> {
  const config = await (await fetch(`${baseUrl}/api/config?_seller=demo`)).json();
  const storefront = config.config._data.find((c: { key: string }) => c.key === 'storefront').value;
  return { eventId: storefront.admission_event_id, timezone: config.seller._data[0].timezone };
}

/** One request's time in ms; it must answer 200 with data, or the figures would measure an error page. */
async function timed(url: string, endpoint: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(url);
  const body = await response.text();
  if (!response.ok || body.length < 100) throw new Error(`${endpoint}: HTTP ${response.status} ${body.slice(0, 200)}`);
  return performance.now() - start;
}

/**
 * autocannon stops with up to CONNECTIONS requests still queued in the server; the next endpoint must not pay
 * for them. Waits until two requests in a row are about as fast as before the run.
 */
async function drained(url: string, endpoint: string, idleMs: number) {
  const deadline = Date.now() + 120_000;
  for (let fast = 0; fast < 2;) {
    if (Date.now() > deadline) throw new Error(`${endpoint}: the server is still busy 2 minutes after the run`);
    fast = (await timed(url, endpoint)) <= 3 * idleMs + 20 ? fast + 1 : 0;
  }
}

const CALENDAR = 'GET events/{id}/calendar (120 days)';
// Without end_date the calendar covers 120 days from today (server/services/calendar.ts), as the storefront asks.
const calendarPath = (eventId: string) => `/api/events/${eventId}/calendar?_seller=demo&_format=extended`;

const load = (url: string, seconds: number) =>
  autocannon({ url, connections: CONNECTIONS, duration: seconds, timeout: 30, headers: { 'accept-encoding': ACCEPT_ENCODING } });

export async function readLoad(baseUrl: string, database: string, seconds: number): Promise<ReadLoadRow[]> {
  const { eventId, timezone } = await admissionEvent(baseUrl);
  const tomorrow = venueDatePlus(timezone, 1);
  const endpoints: [string, string][] = [
    ['GET events/available', '/api/events/available?_seller=demo&hidden_type._in=public_browsable&_embed=venue,meta'],
    [CALENDAR, calendarPath(eventId)],
    [
      'GET events/{id}/sessions',
      `/api/events/${eventId}/sessions?_seller=demo&start_datetime._ondate=${tomorrow}&sold_out=T&_sort=start_datetime`,
    ],
    // The page a visitor's browser asks for first: the storefront with the event's first reads in it.
    ['GET the event page /events/{id}', `/events/${eventId}`],
    // The listing's page, drawn by the server (src/entry-server.tsx) and kept by the read cache like the others.
    ['GET the events page /events (drawn)', '/events'],
  ];
  const rows: ReadLoadRow[] = [];
  for (const [endpoint, path] of endpoints) {
    // One request first: it must answer 200 with data, or the figures would measure an error page.
    const idleMs = await timed(`${baseUrl}${path}`, endpoint);
    const r = await load(`${baseUrl}${path}`, seconds);
    await drained(`${baseUrl}${path}`, endpoint, idleMs);
    rows.push(row(database, endpoint, path, r));
  }
  return rows;
}

function row(database: string, endpoint: string, path: string, r: LoadRun): ReadLoadRow {
  return {
    database,
    endpoint,
    path,
    requestsPerSecond: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total ?? r['2xx'] + r.non2xx,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/**
 * The calendar's readers while BESIDE_BUYERS buyers reserve tickets of `target` (each a new cart from an address of
 * its own: the server must run with TRUST_PROXY=127.0.0.1), as during an on-sale: a reservation must not cost every
 * other reader the read cache.
 */
export async function calendarBesideOnsale(baseUrl: string, database: string, seconds: number, target: Target): Promise<ReadLoadRow> {
  const { eventId } = await admissionEvent(baseUrl);
  const path = calendarPath(eventId);
  const idleMs = await timed(`${baseUrl}${path}`, CALENDAR);
  const [r, b] = await Promise.all([load(`${baseUrl}${path}`, seconds), drive([baseUrl], BESIDE_BUYERS, reserve(target, 1), { seconds })]);
  await drained(`${baseUrl}${path}`, CALENDAR, idleMs);
  return {
    ...row(database, `${CALENDAR} beside ${BESIDE_BUYERS} buyers`, path, r),
    buyers: { clients: b.clients, ticketsPerSecond: b.ticketsPerSecond, p50Ms: b.p50Ms, errorCount: b.errorCount, errors: b.errors },
  };
}

import { sql } from 'kysely';
import type { Db } from '../db';
import type { EventSession, TicketGroup } from '../db/types';
import { availableCapacity, salesOpen } from '../../src/domain/availability';
import { venueDateTime } from '../../src/domain/dates';
import type { EventContext } from './event-context';

/**
 * Read side of capacity. Counters on event_session / session_ticket_group / ticket_group include every
 * live hold; a hold whose cart has expired is released by the sweeper, and until then every read
 * subtracts it (DESIGN.md section 4), so a shopper never sees a seat as taken by an abandoned cart.
 */
export interface GroupState {
  capacity: number;
  oversell_capacity: number;
  used_capacity: number;
  available: number;
  onSale: boolean;
}
export interface SessionState {
  session: EventSession;
  /** Venue-local date (YYYY-MM-DD) and time of day (HH:mm) of the start. */
  date: string;
  time: string;
  used: number;
  /** Session availableCapacity: capacity + oversell - used, -1 unlimited, never below 0. */
  available: number;
  groups: Map<string, GroupState>;
  /** Nothing of the considered groups can be bought in it. */
  soldOut: boolean;
}
export interface SessionQuery {
  from?: Date;
  to?: Date;
  sessionIds?: string[];
  includePast?: boolean;
}

const HOLD_STATES = ['in_cart', 'held'] as const;

function expiredQuery(db: Db, eventIds: string[], now: Date) {
  return db
    .selectFrom('ticket as t')
    .innerJoin('cart as c', 'c.id', 't.cart_id')
    .select(['t.event_session_id', 't.ticket_group_id', sql<string>`count(*)`.as('n')])
    .where('t.event_template_id', 'in', eventIds)
    .where('t.state', 'in', [...HOLD_STATES])
    .where('c.state', '=', 'pending')
    .where('c.expires_at', '<=', now)
    .groupBy(['t.event_session_id', 't.ticket_group_id']);
}

function expiredMap(rows: Array<{ event_session_id: string | null; ticket_group_id: string; n: string | number }>) {
  const out = new Map<string, number>();
  for (const r of rows) out.set(`${r.event_session_id ?? ''}|${r.ticket_group_id}`, Number(r.n));
  return out;
}

/** Live-counted holds of expired carts, keyed 'sessionId|groupId' ('' session for sessionless tickets). */
export async function expiredHolds(db: Db, eventIds: string[], now: Date): Promise<Map<string, number>> {
  if (!eventIds.length) return new Map();
  return expiredMap(await expiredQuery(db, eventIds, now).execute());
}

/** Sessions of events that are sold: active, not started yet (unless includePast), in [from, to). */
function sessionFilter(db: Db, eventIds: string[], q: SessionQuery, now: Date) {
  let query = db.selectFrom('event_session').where('event_template_id', 'in', eventIds).where('state', '=', 'active');
  const from = q.includePast ? q.from : new Date(Math.max(now.getTime(), q.from?.getTime() ?? 0));
  if (from) query = query.where('start_datetime', '>=', from);
  if (q.to) query = query.where('start_datetime', '<', q.to);
  if (q.sessionIds) query = query.where('id', 'in', q.sessionIds.length ? q.sessionIds : ['00000000-0000-0000-0000-000000000000']);
  return query;
}

// A 120-day calendar reads ~2,000 sessions and ~4,000 group rows. They travel as one JSON value per query:
// PGlite's JavaScript wire-protocol parser takes ~45 µs a row (86 ms for the sessions, 21 ms as JSON), and
// PostgreSQL with pg is as fast either way (measured: scripts of issue 5's note).
type SessionTuple = [string, string, string, number, number, number, number, number, number, string[], string];

function sessionsJson(db: Db, eventIds: string[], q: SessionQuery, now: Date) {
  return sessionFilter(db, eventIds, q, now).select(
    sql<SessionTuple[]>`coalesce(json_agg(json_build_array(
      id, seller_id, event_template_id, (extract(epoch from start_datetime) * 1000)::bigint,
      (extract(epoch from end_datetime) * 1000)::bigint, capacity, oversell_capacity, used_capacity, price_increase,
      annotations, state) order by start_datetime, id), '[]'::json)`.as('rows'),
  );
}

function sessionsOf(rows: SessionTuple[]): EventSession[] {
  return rows.map((t) => ({
    id: t[0],
    seller_id: t[1],
    event_template_id: t[2],
    start_datetime: new Date(t[3]),
    end_datetime: new Date(t[4]),
    capacity: t[5],
    oversell_capacity: t[6],
    used_capacity: t[7],
    price_increase: t[8],
    annotations: t[9],
    state: t[10],
  }));
}

export async function loadSessions(db: Db, eventIds: string[], q: SessionQuery, now: Date): Promise<EventSession[]> {
  if (!eventIds.length) return [];
  return sessionsOf((await sessionsJson(db, eventIds, q, now).executeTakeFirstOrThrow()).rows);
}

export interface GroupCounter {
  capacity: number;
  oversell_capacity: number;
  used_capacity: number;
}

type CounterTuple = [string, string, number, number, number];

function groupCountersJson(db: Db, eventIds: string[], groupIds: string[], q: SessionQuery, now: Date) {
  // Looked up by the sessions' ids (the key's first column), as one array: joined to the sessions, the planner with
  // statistics hashed the whole table for a day's few sessions (0.65 of the statement's 0.92 ms on PostgreSQL for a
  // day of 16; PGlite's uncached sessions read 252 -> 299-329 requests/s with this lookup).
  return db
    .selectFrom('session_ticket_group as stg')
    .where(sql<boolean>`stg.event_session_id = any(array(${sessionFilter(db, eventIds, q, now).select('id')}))`)
    .where('stg.ticket_group_id', 'in', groupIds)
    .select(
      sql<CounterTuple[]>`coalesce(json_agg(json_build_array(stg.event_session_id,
      stg.ticket_group_id, stg.capacity, stg.oversell_capacity, stg.used_capacity)), '[]'::json)`.as('rows'),
    );
}

function countersOf(rows: CounterTuple[]): Map<string, GroupCounter> {
  const out = new Map<string, GroupCounter>();
  for (const [sid, gid, capacity, oversell_capacity, used_capacity] of rows) {
    out.set(`${sid}|${gid}`, { capacity, oversell_capacity, used_capacity });
  }
  return out;
}

/** session_ticket_group rows of the sessions a query selects, for the given groups, keyed 'sessionId|groupId'. */
export async function loadGroupCounters(
  db: Db,
  eventIds: string[],
  groupIds: string[],
  q: SessionQuery,
  now: Date,
): Promise<Map<string, GroupCounter>> {
  if (!eventIds.length || !groupIds.length) return new Map();
  return countersOf((await groupCountersJson(db, eventIds, groupIds, q, now).executeTakeFirstOrThrow()).rows);
}

/**
 * Sessions of one event with their capacity, per considered group (session-sold groups the request sees).
 * One statement whatever the number of sessions: sessions, their group rows and expired holds as three JSON values
 * (a sessions listing is one round trip after the event context; on PGlite statements queue on one session).
 */
export async function loadSessionStates(
  db: Db,
  ctx: EventContext,
  groups: TicketGroup[],
  q: SessionQuery,
  now: Date,
): Promise<SessionState[]> {
  const eventIds = [ctx.event.id];
  const groupIds = groups.map((g) => g.id);
  const row = await db
    .selectNoFrom([
      sessionsJson(db, eventIds, q, now).as('sessions'),
      groupIds.length ? groupCountersJson(db, eventIds, groupIds, q, now).as('stg') : sql<CounterTuple[]>`'[]'::json`.as('stg'),
      db
        .selectFrom(expiredQuery(db, eventIds, now).as('e'))
        .select(
          sql<
            Array<[string | null, string, number]>
          >`coalesce(json_agg(json_build_array(e.event_session_id, e.ticket_group_id, e.n)), '[]'::json)`.as('rows'),
        )
        .as('expired'),
    ])
    .executeTakeFirstOrThrow();
  const stg = countersOf((row.stg ?? []) as CounterTuple[]);
  const expired = expiredMap(
    ((row.expired ?? []) as Array<[string | null, string, number]>).map(([event_session_id, ticket_group_id, n]) => ({
      event_session_id,
      ticket_group_id,
      n,
    })),
  );
  return sessionsOf((row.sessions ?? []) as SessionTuple[]).map((s) => computeSessionState(s, groups, stg, expired, now, ctx.tz));
}

// expiredHolds() keyed by session, built once per map: a calendar asks for each of its ~2,000 sessions, and an
// on-sale can leave thousands of expired holds for the sweeper.
const expiredIndex = new WeakMap<Map<string, number>, Map<string, Array<[string, number]>>>();
function expiredBySession(expired: Map<string, number>): Map<string, Array<[string, number]>> {
  let index = expiredIndex.get(expired);
  if (!index) {
    index = new Map();
    for (const [key, n] of expired) {
      const [sid, gid] = key.split('|');
      const list = index.get(sid);
      if (list) list.push([gid, n]);
      else index.set(sid, [[gid, n]]);
    }
    expiredIndex.set(expired, index);
  }
  return index;
}

export function computeSessionState(
  s: EventSession,
  groups: TicketGroup[],
  stg: Map<string, GroupCounter>,
  expired: Map<string, number>,
  now: Date,
  tz: string,
): SessionState {
  const groupStates = new Map<string, GroupState>();
  let expiredOnSession = 0;
  for (const [gid, n] of expiredBySession(expired).get(s.id) ?? []) {
    const g = groups.find((x) => x.id === gid);
    if (!g || !g.exclude_from_event_capacity) expiredOnSession += n;
  }
  const used = Math.max(0, s.used_capacity - expiredOnSession);
  const available = availableCapacity({ capacity: s.capacity, oversell_capacity: s.oversell_capacity, used_capacity: used });
  for (const g of groups) {
    // A session without its own group row sells the group at the group's per-session size.
    const row = stg.get(`${s.id}|${g.id}`) ?? { capacity: g.capacity, oversell_capacity: g.oversell_capacity, used_capacity: 0 };
    const groupUsed = Math.max(0, row.used_capacity - (expired.get(`${s.id}|${g.id}`) ?? 0));
    const counter = { capacity: row.capacity, oversell_capacity: row.oversell_capacity, used_capacity: groupUsed };
    const onSale = salesOpen(g, now);
    groupStates.set(g.id, { ...counter, onSale, available: onSale ? availableCapacity(counter) : 0 });
  }
  const soldOut =
    groups.length === 0 ||
    groups.every((g) => {
      const gs = groupStates.get(g.id)!;
      return gs.available === 0 || (!g.exclude_from_event_capacity && available === 0);
    });
  return { session: s, ...venueDateTime(s.start_datetime, tz), used, available, groups: groupStates, soldOut };
}

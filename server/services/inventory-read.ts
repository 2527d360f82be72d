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
export interface GroupState { capacity: number; oversell_capacity: number; used_capacity: number; available: number; onSale: boolean }
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
export interface SessionQuery { from?: Date; to?: Date; sessionIds?: string[]; includePast?: boolean }

const HOLD_STATES = ['in_cart', 'held'] as const;

/** Live-counted holds of expired carts, keyed 'sessionId|groupId' ('' session for sessionless tickets). */
export async function expiredHolds(db: Db, eventIds: string[], now: Date): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!eventIds.length) return out;
  const rows = await db.selectFrom('ticket as t').innerJoin('cart as c', 'c.id', 't.cart_id')
    .select(['t.event_session_id', 't.ticket_group_id', sql<string>`count(*)`.as('n')])
    .where('t.event_template_id', 'in', eventIds).where('t.state', 'in', [...HOLD_STATES])
    .where('c.state', '=', 'pending').where('c.expires_at', '<=', now)
    .groupBy(['t.event_session_id', 't.ticket_group_id']).execute();
  for (const r of rows) out.set(`${r.event_session_id ?? ''}|${r.ticket_group_id}`, Number(r.n));
  return out;
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

export async function loadSessions(db: Db, eventIds: string[], q: SessionQuery, now: Date) {
  if (!eventIds.length) return [];
  return sessionFilter(db, eventIds, q, now).selectAll().orderBy('start_datetime').orderBy('id').execute();
}

/**
 * Sessions of one event with their capacity, per considered group (session-sold groups the request sees).
 * Three queries whatever the number of sessions: sessions, their group rows, expired holds.
 */
export async function loadSessionStates(db: Db, ctx: EventContext, groups: TicketGroup[], q: SessionQuery, now: Date): Promise<SessionState[]> {
  const eventIds = [ctx.event.id];
  const [sessions, stgRows, expired] = await Promise.all([
    loadSessions(db, eventIds, q, now),
    groups.length
      ? db.selectFrom('session_ticket_group as stg')
        .innerJoin(sessionFilter(db, eventIds, q, now).select('id').as('s'), 's.id', 'stg.event_session_id')
        .selectAll('stg').where('stg.ticket_group_id', 'in', groups.map((g) => g.id)).execute()
      : Promise.resolve([]),
    expiredHolds(db, eventIds, now),
  ]);
  const stg = new Map(stgRows.map((r) => [`${r.event_session_id}|${r.ticket_group_id}`, r]));
  return sessions.map((s) => computeSessionState(s, groups, stg, expired, now, ctx.tz));
}

export function computeSessionState(
  s: EventSession, groups: TicketGroup[],
  stg: Map<string, { capacity: number; oversell_capacity: number; used_capacity: number }>,
  expired: Map<string, number>, now: Date, tz: string,
): SessionState {
  const groupStates = new Map<string, GroupState>();
  let expiredOnSession = 0;
  for (const [key, n] of expired) {
    const [sid, gid] = key.split('|');
    if (sid !== s.id) continue;
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
  const soldOut = groups.length === 0 || groups.every((g) => {
    const gs = groupStates.get(g.id)!;
    return gs.available === 0 || (!g.exclude_from_event_capacity && available === 0);
  });
  return { session: s, ...venueDateTime(s.start_datetime, tz), used, available, groups: groupStates, soldOut };
}

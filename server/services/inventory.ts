import { sql, type Transaction } from 'kysely';
import type { Database, EventSession, TicketGroup, TicketType } from '../db/types';
import { DomainError } from './errors';

type Trx = Transaction<Database>;

/**
 * Capacity is taken and given back with one conditional UPDATE per counter, inside the caller's
 * transaction: the row lock of the UPDATE serialises concurrent buyers and the WHERE re-checks the
 * counter after the lock, so `used <= capacity + oversell` holds under any concurrency. Never read the
 * counter and write it back.
 */

/** How many tickets of one group a cart wants for one session (sessionId null: flexible/sessionless). */
export interface CapacityNeed {
  sessionId: string | null;
  groupId: string;
  count: number;
}

let unsafeSkipCapacityGuard = false;
/**
 * TEST ONLY. Switches the capacity predicate off so a concurrency test has a control that observes the
 * oversell the guard prevents (DESIGN.md section 4). Not reachable from HTTP or configuration.
 */
export function setUnsafeSkipCapacityGuardForTests(on: boolean): void {
  unsafeSkipCapacityGuard = on;
}
/** Whether the capacity predicate is on (always, but in the control of a concurrency test). */
export const capacityGuarded = () => !unsafeSkipCapacityGuard;

export const soldOut = {
  session: (sessionId: string, available: number, wanted: number) =>
    available <= 0
      ? new DomainError('event_session_sold_out', 'Tickets have sold out for this session.', 'reserve', { event_session_id: sessionId })
      : new DomainError('session_capacity_exceeded', `Only ${available} tickets are left for this session.`, 'reserve', {
          event_session_id: sessionId,
          available,
          requested: wanted,
        }),
  group: (groupId: string, sessionId: string | null, available: number, wanted: number) =>
    available <= 0
      ? new DomainError('ticket_group_sold_out', 'Tickets of this type have sold out.', 'reserve', {
          ticket_group_id: groupId,
          event_session_id: sessionId,
        })
      : new DomainError('ticket_group_capacity_exceeded', `Only ${available} tickets of this type are left.`, 'reserve', {
          ticket_group_id: groupId,
          event_session_id: sessionId,
          available,
          requested: wanted,
        }),
};

/** Whether taking n more places would pass a limited counter row's capacity and oversell (what the guarded UPDATEs
 *  below refuse, read in JavaScript). */
export const wouldOverfill = (r: { capacity: number; oversell_capacity: number; used_capacity: number }, n: number) =>
  r.capacity >= 0 && r.used_capacity + n > r.capacity + r.oversell_capacity;

/** Places a counter row has left (never below 0): what the sold-out refusals name as available. */
export const remaining = (r: { capacity: number; oversell_capacity: number; used_capacity: number }) =>
  Math.max(0, r.capacity + r.oversell_capacity - r.used_capacity);

/** Sums needs per counter, in a fixed order (ids sorted) so concurrent transactions lock rows alike. */
function counters(needs: CapacityNeed[], groups: Map<string, TicketGroup>) {
  const session = new Map<string, number>();
  const sessionGroup = new Map<string, { sessionId: string; groupId: string; count: number }>();
  const group = new Map<string, number>();
  for (const n of needs) {
    if (n.count <= 0) continue;
    const g = groups.get(n.groupId);
    if (!g) throw new Error(`ticket group ${n.groupId} not loaded`);
    if (n.sessionId === null || g.flexible) {
      group.set(g.id, (group.get(g.id) ?? 0) + n.count);
      continue;
    }
    if (!g.exclude_from_event_capacity) session.set(n.sessionId, (session.get(n.sessionId) ?? 0) + n.count);
    const key = `${n.sessionId}/${g.id}`;
    const prev = sessionGroup.get(key);
    sessionGroup.set(key, { sessionId: n.sessionId, groupId: g.id, count: (prev?.count ?? 0) + n.count });
  }
  const byKey = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { session: byKey(session), sessionGroup: byKey(sessionGroup).map(([, v]) => v), group: byKey(group) };
}

export async function loadGroups(trx: Trx, groupIds: string[]): Promise<Map<string, TicketGroup>> {
  const ids = [...new Set(groupIds)];
  if (ids.length === 0) return new Map();
  const rows = await trx.selectFrom('ticket_group').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((g) => [g.id, g]));
}

/** Takes capacity for every need or throws the spec's sold-out error (the caller's transaction rolls back). */
export async function takeCapacity(trx: Trx, needs: CapacityNeed[], groups?: Map<string, TicketGroup>): Promise<void> {
  const gs =
    groups ??
    (await loadGroups(
      trx,
      needs.map((n) => n.groupId),
    ));
  const c = counters(needs, gs);
  const guard = !unsafeSkipCapacityGuard;

  for (const [sessionId, n] of c.session) {
    const row = await trx
      .updateTable('event_session')
      .set({ used_capacity: sql`used_capacity + ${n}` })
      .where('id', '=', sessionId)
      .$if(guard, (q) => q.where(sql<boolean>`(capacity < 0 or used_capacity + ${n} <= capacity + oversell_capacity)`))
      .returning('id')
      .executeTakeFirst();
    if (!row) {
      const s = await trx
        .selectFrom('event_session')
        .select(['capacity', 'oversell_capacity', 'used_capacity'])
        .where('id', '=', sessionId)
        .executeTakeFirst();
      throw soldOut.session(sessionId, s ? remaining(s) : 0, n);
    }
  }

  for (const { sessionId, groupId, count } of c.sessionGroup) {
    const g = gs.get(groupId)!;
    // The per-session usage row of a group appears with its first sale; its capacity comes from the group.
    await trx
      .insertInto('session_ticket_group')
      .values({ event_session_id: sessionId, ticket_group_id: groupId, capacity: g.capacity, oversell_capacity: g.oversell_capacity })
      .onConflict((oc) => oc.columns(['event_session_id', 'ticket_group_id']).doNothing())
      .execute();
    const row = await trx
      .updateTable('session_ticket_group')
      .set({ used_capacity: sql`used_capacity + ${count}` })
      .where('event_session_id', '=', sessionId)
      .where('ticket_group_id', '=', groupId)
      .$if(guard, (q) => q.where(sql<boolean>`(capacity < 0 or used_capacity + ${count} <= capacity + oversell_capacity)`))
      .returning('event_session_id')
      .executeTakeFirst();
    if (!row) {
      const s = await trx
        .selectFrom('session_ticket_group')
        .select(['capacity', 'oversell_capacity', 'used_capacity'])
        .where('event_session_id', '=', sessionId)
        .where('ticket_group_id', '=', groupId)
        .executeTakeFirst();
      throw soldOut.group(groupId, sessionId, s ? remaining(s) : 0, count);
    }
  }

  for (const [groupId, n] of c.group) {
    const row = await trx
      .updateTable('ticket_group')
      .set({ used_capacity: sql`used_capacity + ${n}` })
      .where('id', '=', groupId)
      .$if(guard, (q) => q.where(sql<boolean>`(capacity < 0 or used_capacity + ${n} <= capacity + oversell_capacity)`))
      .returning('id')
      .executeTakeFirst();
    if (!row) {
      const g = await trx
        .selectFrom('ticket_group')
        .select(['capacity', 'oversell_capacity', 'used_capacity'])
        .where('id', '=', groupId)
        .executeTakeFirst();
      throw soldOut.group(groupId, null, g ? remaining(g) : 0, n);
    }
  }
}

/** Gives capacity back. Callers guarantee each ticket is released once (its state moves out of in_cart). */
export async function releaseCapacity(trx: Trx, needs: CapacityNeed[], groups?: Map<string, TicketGroup>): Promise<void> {
  const gs =
    groups ??
    (await loadGroups(
      trx,
      needs.map((n) => n.groupId),
    ));
  const c = counters(needs, gs);
  for (const [sessionId, n] of c.session) {
    await trx
      .updateTable('event_session')
      .set({ used_capacity: sql`used_capacity - ${n}` })
      .where('id', '=', sessionId)
      .execute();
  }
  for (const { sessionId, groupId, count } of c.sessionGroup) {
    await trx
      .updateTable('session_ticket_group')
      .set({ used_capacity: sql`used_capacity - ${count}` })
      .where('event_session_id', '=', sessionId)
      .where('ticket_group_id', '=', groupId)
      .execute();
  }
  for (const [groupId, n] of c.group) {
    await trx
      .updateTable('ticket_group')
      .set({ used_capacity: sql`used_capacity - ${n}` })
      .where('id', '=', groupId)
      .execute();
  }
}

/** Needs of a list of tickets (one per ticket). */
export function needsOf(tickets: Array<{ event_session_id: string | null; ticket_group_id: string }>): CapacityNeed[] {
  return tickets.map((t) => ({ sessionId: t.event_session_id, groupId: t.ticket_group_id, count: 1 }));
}

const unavailable = (description: string, extra: Record<string, unknown>) =>
  new DomainError('ticket_group_sold_out', description, 'reserve', extra);

/**
 * Whether a type may be sold now for a session: session active and in the future, the group on sale,
 * and member-only groups and types only for an identity with an active membership.
 */
export function assertSellable(args: {
  now: Date;
  group: TicketGroup;
  type: TicketType;
  session: EventSession | null;
  isMember: boolean;
}): void {
  const { now, group, type, session, isMember } = args;
  if (session) {
    if (session.state !== 'active' || session.event_template_id !== group.event_template_id) {
      throw new DomainError('event_session_sold_out', 'Sorry, tickets for this event are not available at the selected time.', 'reserve', {
        event_session_id: session.id,
        reason: 'session_unavailable',
      });
    }
    if (new Date(session.start_datetime).getTime() <= now.getTime()) {
      throw new DomainError('event_session_sold_out', 'Sorry, tickets for this event are not available at the selected time.', 'reserve', {
        event_session_id: session.id,
        reason: 'session_started',
      });
    }
  } else if (!group.flexible && group.handler === 'tickets') {
    throw new DomainError('validation_failed', 'A session is required for this ticket type.', 'reserve', { field: 'event_session_id' });
  }
  if (group.sales_start && new Date(group.sales_start).getTime() > now.getTime()) {
    throw unavailable('Sorry, tickets are not available for this event.', { ticket_group_id: group.id, reason: 'sales_not_started' });
  }
  if (group.sales_end && new Date(group.sales_end).getTime() <= now.getTime()) {
    throw unavailable('Sorry, tickets are not available for this event.', { ticket_group_id: group.id, reason: 'sales_ended' });
  }
  if ((group.hidden_type === 'public_member_only' || type.member_only) && !isMember) {
    throw new DomainError('rule_blocks_reserve', 'These tickets are for members only.', 'reserve', {
      block_reason: 'membership_required',
      ticket_group_id: group.id,
      ticket_type_id: type.id,
    });
  }
}

/** An identity is a member while it holds an active membership valid now. */
export async function hasActiveMembership(trx: Trx, identityId: string | null, now: Date): Promise<boolean> {
  if (!identityId) return false;
  const row = await trx
    .selectFrom('membership')
    .select('id')
    .where('identity_id', '=', identityId)
    .where('state', '=', 'active')
    .where('valid_from', '<=', now)
    .where('valid_to', '>', now)
    .executeTakeFirst();
  return !!row;
}

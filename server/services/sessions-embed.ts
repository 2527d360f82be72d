import type { Db } from '../db';
import type { EventContext } from './event-context';
import { computeSessionState, expiredHolds, loadSessions } from './inventory-read';
import { consideredGroups, sessionFigures } from './sessions';
import { sessionRow } from './wire';

/** How many sessions per event a listing embeds; the event detail asks for the rest by date. */
export const EMBEDDED_SESSIONS_PER_EVENT = 50;

/** event_session rows embedded in events/available: the first sessions in range of each listed event. */
export async function embeddedSessions(db: Db, contexts: EventContext[], range: { from?: Date; to?: Date }, now: Date) {
  const ids = contexts.map((c) => c.event.id);
  const all = await loadSessions(db, ids, range, now);
  const perEvent = new Map<string, number>();
  const sessions = all.filter((s) => {
    const n = perEvent.get(s.event_template_id) ?? 0;
    perEvent.set(s.event_template_id, n + 1);
    return n < EMBEDDED_SESSIONS_PER_EVENT;
  });
  if (!sessions.length) return [];
  const [stgRows, expired] = await Promise.all([
    db
      .selectFrom('session_ticket_group')
      .selectAll()
      .where(
        'event_session_id',
        'in',
        sessions.map((s) => s.id),
      )
      .execute(),
    expiredHolds(db, ids, now),
  ]);
  const stg = new Map(stgRows.map((r) => [`${r.event_session_id}|${r.ticket_group_id}`, r]));
  const byEvent = new Map(contexts.map((c) => [c.event.id, c]));
  return sessions.map((s) => {
    const ctx = byEvent.get(s.event_template_id)!;
    const groups = consideredGroups(ctx);
    const state = computeSessionState(s, groups, stg, expired, now, ctx.tz);
    return sessionRow(s, sessionFigures(ctx, state, groups));
  });
}

import type { Transaction } from 'kysely';
import type { Database, Seller } from '../../db/types';
import { DomainError } from '../errors';
import { conflictRules, findConflict, type TimedVisit } from '../../../src/domain/conflicts';

type Trx = Transaction<Database>;

/**
 * Conflict avoidance on the server (issue 16): a session added to the cart must not overlap, padded, another session
 * the cart holds (src/domain/conflicts.ts, the rule the storefront shows). Runs in the reserve transaction after the
 * new tickets are inserted, so two lines of one request are checked against each other too.
 */
export async function checkConflicts(trx: Trx, seller: Seller, cartId: string, addedSessionIds: readonly string[]): Promise<void> {
  const rules = conflictRules(seller.config);
  if (!rules.enabled || addedSessionIds.length === 0) return;
  const rows = await trx
    .selectFrom('ticket')
    .innerJoin('event_session', 'event_session.id', 'ticket.event_session_id')
    .innerJoin('event_template', 'event_template.id', 'ticket.event_template_id')
    .select([
      'event_session.id as session_id',
      'event_session.start_datetime',
      'event_session.end_datetime',
      'event_template.id as event_id',
      'event_template.category',
      'event_template.meta',
    ])
    .distinct()
    .where('ticket.cart_id', '=', cartId)
    .where('ticket.state', '=', 'in_cart')
    .execute();
  const visits: Array<TimedVisit & { eventId: string }> = rows.map((r) => ({
    sessionId: r.session_id,
    start: r.start_datetime,
    end: r.end_datetime,
    category: r.category,
    meta: r.meta as Record<string, unknown> | null,
    eventId: r.event_id,
  }));
  for (const sessionId of addedSessionIds) {
    const added = visits.find((v) => v.sessionId === sessionId);
    if (!added) continue;
    const other = findConflict(added, visits, rules);
    if (other) {
      throw new DomainError('session_conflict', 'This time overlaps another visit in your cart.', 'reserve', {
        event_session_id: sessionId,
        conflicting_session_id: other.sessionId,
        conflicting_event_id: other.eventId,
      });
    }
  }
}

import type { Seller } from '../../db/types';
import { DomainError } from '../errors';
import { conflictRules, findConflict, type TimedVisit } from '../../../src/domain/conflicts';
import type { CartVisit } from '../../../src/domain/upsell';

/**
 * Conflict avoidance on the server (issue 16): a session added to the cart must not overlap, padded, another session
 * the cart holds (src/domain/conflicts.ts, the rule the storefront shows). Runs in the reserve transaction over what
 * the cart holds after the new tickets are inserted (visits.ts), so two lines of one request are checked against each
 * other too.
 */
export function checkConflicts(seller: Seller, held: readonly CartVisit[], addedSessionIds: readonly string[]): void {
  const rules = conflictRules(seller.config);
  if (!rules.enabled || addedSessionIds.length === 0) return;
  const visits: Array<TimedVisit & { eventId: string }> = held.flatMap((v) =>
    v.sessionId && v.start
      ? [
          {
            sessionId: v.sessionId,
            start: v.start,
            end: v.end,
            category: v.category,
            meta: v.meta as Record<string, unknown> | null,
            eventId: v.eventId,
          },
        ]
      : [],
  );
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

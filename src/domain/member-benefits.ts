import { activeMemberships, type MembershipTerm } from './session';
import type { Benefit } from './membership';

/**
 * The ticket types a logged-in member may take as a member (spec section 6): those named by the benefits of the
 * memberships current now; null for a visitor who is not a current member. Sorted, so it can key a store.
 */
export function memberBenefitTypes(
  memberships: Array<MembershipTerm & { benefits?: unknown[] }>,
  now: Date,
  loggedIn: boolean,
): string[] | null {
  if (!loggedIn) return null;
  const current = activeMemberships(memberships, now);
  if (current.length === 0) return null;
  const ids = new Set<string>();
  for (const m of current)
    for (const b of m.benefits ?? []) {
      const id = (b as { ticket_type_id?: unknown } | null)?.ticket_type_id;
      if (typeof id === 'string' && id !== '*') ids.add(id);
    }
  return [...ids].sort();
}

/** The benefits (with their member prices, minor units) and per-event limit of the first current membership: the caps
 *  of the member steppers and the subtotal's prices; null otherwise. */
export function currentBenefits(
  memberships: Array<MembershipTerm & { benefits?: unknown[]; member_event_purchase_limit?: number }>,
  now: Date,
  loggedIn: boolean,
): { benefits: Benefit[]; limit: number } | null {
  const current = loggedIn ? activeMemberships(memberships, now)[0] : undefined;
  if (!current) return null;
  const benefits = (current.benefits ?? []).flatMap((b) => {
    const row = (b ?? {}) as { ticket_type_id?: unknown; quantity?: unknown; price?: unknown };
    return typeof row.ticket_type_id === 'string' && typeof row.quantity === 'number'
      ? [{ ticket_type_id: row.ticket_type_id, quantity: row.quantity, ...(typeof row.price === 'number' ? { price: row.price } : {}) }]
      : [];
  });
  return { benefits, limit: current.member_event_purchase_limit ?? -1 };
}

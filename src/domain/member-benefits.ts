import { activeMemberships, type MembershipTerm } from './session';

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

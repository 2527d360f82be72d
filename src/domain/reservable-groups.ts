import type { TicketGroupRow, TicketTypeRow } from '../contract/catalogue';

/** Handlers sold per session (the server's isSessionSold); other groups are any-date admission. */
const SESSION_HANDLERS = new Set(['tickets', 'passes', 'seated', 'citypass']);

export const isDatedGroup = (g: Pick<TicketGroupRow, 'flexible' | 'handler'>) => !g.flexible && SESSION_HANDLERS.has(g.handler);

/**
 * Spec section 6: a members-only group, or a members-only type, is for a current member, and only the types in the
 * member's benefits (`memberTypeIds`: none for a visitor who is not a member).
 */
export function buyableType(
  group: Pick<TicketGroupRow, 'hidden_type'>,
  type: Pick<TicketTypeRow, 'id' | 'member_only'>,
  memberTypeIds?: ReadonlySet<string> | null,
): boolean {
  if (group.hidden_type !== 'public_member_only' && !type.member_only) return true;
  return Boolean(memberTypeIds?.has(type.id));
}

/** The groups a visitor may buy on the event detail, in rank order: those with a type for this visitor (members-only
 *  groups only for a member, with the types of their benefits); groups without types are hidden. */
export function publicGroupsOf(
  groups: TicketGroupRow[],
  types: Pick<TicketTypeRow, 'id' | 'ticket_group_id' | 'member_only'>[],
  memberTypeIds?: ReadonlySet<string> | null,
): TicketGroupRow[] {
  return groups
    .filter((g) => types.some((t) => t.ticket_group_id === g.id && buyableType(g, t, memberTypeIds)))
    .sort((a, b) => a._rank - b._rank);
}

/** Spec section 6: an event that is members-only, or whose groups all are. */
export function isMembersOnlyEvent(event: { hidden_type?: string | null }, groups: Pick<TicketGroupRow, 'hidden_type'>[]): boolean {
  return event.hidden_type === 'public_member_only' || (groups.length > 0 && groups.every((g) => g.hidden_type === 'public_member_only'));
}

/** The groups the event detail asks the calendar and the sessions about (server/http/index-html.ts asks the same). */
export const datedGroupIdsOf = (groups: TicketGroupRow[], types: Pick<TicketTypeRow, 'id' | 'ticket_group_id' | 'member_only'>[]) =>
  publicGroupsOf(groups, types)
    .filter(isDatedGroup)
    .map((g) => g.id);

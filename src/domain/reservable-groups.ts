import type { TicketGroupRow, TicketTypeRow } from '../contract/catalogue';

/** Handlers sold per session (the server's isSessionSold); other groups are any-date admission. */
const SESSION_HANDLERS = new Set(['tickets', 'passes', 'seated', 'citypass']);

export const isDatedGroup = (g: Pick<TicketGroupRow, 'flexible' | 'handler'>) => !g.flexible && SESSION_HANDLERS.has(g.handler);

/** The groups a visitor may buy on the event detail, in rank order: not members-only, with a type for everyone. */
export function publicGroupsOf(
  groups: TicketGroupRow[],
  types: Pick<TicketTypeRow, 'ticket_group_id' | 'member_only'>[],
): TicketGroupRow[] {
  return groups
    .filter((g) => g.hidden_type !== 'public_member_only' && types.some((t) => t.ticket_group_id === g.id && !t.member_only))
    .sort((a, b) => a._rank - b._rank);
}

/** The groups the event detail asks the calendar and the sessions about (server/http/index-html.ts asks the same). */
export const datedGroupIdsOf = (groups: TicketGroupRow[], types: Pick<TicketTypeRow, 'ticket_group_id' | 'member_only'>[]) =>
  publicGroupsOf(groups, types)
    .filter(isDatedGroup)
    .map((g) => g.id);

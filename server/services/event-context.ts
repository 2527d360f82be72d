import { sql } from 'kysely';
import type { Db } from '../db';
import type { EventTemplate, Seller, TicketGroup, TicketType } from '../db/types';
import { DomainError } from './errors';
import { normaliseRules, type NormalRule } from '../../src/domain/message-rules';
import { availableCapacity, salesOpen } from '../../src/domain/availability';

/**
 * One event with everything the read rules need: venue timezone, groups, types and message rules.
 * Loaded in one statement per request (loadEventContext) and then worked on in memory.
 */
export interface EventContext {
  seller: Seller;
  event: EventTemplate;
  venue: { id: string; name: string; timezone: string; address: unknown } | null;
  /** The venue timezone decides what a date is; the seller's when the event has no venue. */
  tz: string;
  groups: TicketGroup[];
  types: TicketType[];
  rules: NormalRule[];
  rawRules: Array<{ id: string; _rank: number; triggers: unknown; actions: unknown }>;
}

export const eventNotFound = (id: string) =>
  new DomainError('event_not_found', 'Resource event_template not found.', undefined, { resource: 'event_template', id });

/** Handlers whose tickets are sold per session; the others (gift cards, donations, memberships, codes) are not. */
const SESSION_HANDLERS = new Set(['tickets', 'passes', 'seated', 'citypass']);
export const isSessionSold = (g: TicketGroup) => !g.flexible && SESSION_HANDLERS.has(g.handler);

/** JSON of a ticket_group row: its timestamps arrive as text. */
type GroupJson = Omit<TicketGroup, 'sales_start' | 'sales_end' | 'start_policy_date'> & {
  sales_start: string | null;
  sales_end: string | null;
  start_policy_date: string | null;
};
const dateOrNull = (v: string | null) => (v === null ? null : new Date(v));
const groupOf = (g: GroupJson): TicketGroup => ({
  ...g,
  sales_start: dateOrNull(g.sales_start),
  sales_end: dateOrNull(g.sales_end),
  start_policy_date: dateOrNull(g.start_policy_date),
});

/**
 * One event's context in one statement: the event, its venue, groups, types and rules as JSON values, in the orders
 * loadEventContexts reads them. Every uncached read of an event (its calendar, sessions, page) starts here: as five
 * statements in two round trips this was about a tenth of an uncached calendar's time on PostgreSQL.
 */
export async function loadEventContext(db: Db, seller: Seller, eventId: string): Promise<EventContext> {
  const { rows } = await sql<{ event: EventTemplate; venue: Venue | null; groups: GroupJson[]; types: TicketType[]; rules: RawRule[] }>`
    select to_json(e) as event,
      (select json_build_object('id', v.id, 'name', v.name, 'timezone', v.timezone, 'address', v.address)
        from venue v where v.id = e.venue_id) as venue,
      (select coalesce(json_agg(g order by g._rank, g.name), '[]'::json) from ticket_group g
        where g.event_template_id = e.id and g.hidden_type <> 'hidden') as groups,
      (select coalesce(json_agg(t order by g._rank, t._rank, t.name), '[]'::json)
        from ticket_type t join ticket_group g on g.id = t.ticket_group_id
        where g.event_template_id = e.id and g.hidden_type <> 'hidden') as types,
      (select coalesce(json_agg(json_build_object('id', r.id, '_rank', r._rank, 'triggers', r.triggers, 'actions', r.actions)
        order by r._rank), '[]'::json) from message_rule r where r.event_template_id = e.id) as rules
    from event_template e where e.id = ${eventId} and e.seller_id = ${seller.id} and e.hidden_type <> 'hidden'`.execute(db);
  const row = rows[0];
  if (!row) throw eventNotFound(eventId);
  return contextOf(seller, row.event, row.venue, row.groups.map(groupOf), row.types, row.rules);
}

type Venue = NonNullable<EventContext['venue']>;
type RawRule = EventContext['rawRules'][number];

function contextOf(
  seller: Seller,
  event: EventTemplate,
  venue: Venue | null,
  groups: TicketGroup[],
  types: TicketType[],
  rawRules: RawRule[],
): EventContext {
  return {
    seller,
    event,
    venue,
    tz: venue?.timezone ?? seller.timezone,
    groups,
    types,
    rules: normaliseRules(rawRules),
    rawRules,
  };
}

/** Contexts of several events with four queries in all (venues, groups, types, rules). */
export async function loadEventContexts(db: Db, seller: Seller, events: EventTemplate[]): Promise<EventContext[]> {
  if (!events.length) return [];
  const eventIds = events.map((e) => e.id);
  const venueIds = [...new Set(events.map((e) => e.venue_id).filter((v): v is string => Boolean(v)))];
  const [venues, groups, types, rules] = await Promise.all([
    venueIds.length
      ? db.selectFrom('venue').select(['id', 'name', 'timezone', 'address']).where('id', 'in', venueIds).execute()
      : Promise.resolve([]),
    db
      .selectFrom('ticket_group')
      .selectAll()
      .where('event_template_id', 'in', eventIds)
      .where('hidden_type', '!=', 'hidden')
      .orderBy('_rank')
      .orderBy('name')
      .execute(),
    db
      .selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .selectAll('ticket_type')
      .select('ticket_group.event_template_id')
      .where('ticket_group.event_template_id', 'in', eventIds)
      .where('ticket_group.hidden_type', '!=', 'hidden')
      .orderBy('ticket_group._rank')
      .orderBy('ticket_type._rank')
      .orderBy('ticket_type.name')
      .execute(),
    db
      .selectFrom('message_rule')
      .select(['id', 'event_template_id', '_rank', 'triggers', 'actions'])
      .where('event_template_id', 'in', eventIds)
      .orderBy('_rank')
      .execute(),
  ]);
  return events.map((event) =>
    contextOf(
      seller,
      event,
      venues.find((v) => v.id === event.venue_id) ?? null,
      groups.filter((g) => g.event_template_id === event.id),
      types.filter((t) => t.event_template_id === event.id).map(({ event_template_id: _e, ...t }) => t),
      rules.filter((r) => r.event_template_id === event.id).map(({ id, _rank, triggers, actions }) => ({ id, _rank, triggers, actions })),
    ),
  );
}

/**
 * Which groups a request sees: never 'hidden'; members-only groups only when asked for by hidden_type._in;
 * ticket_group_id._in narrows further (and shows the named groups). With hidden_type._in exactly those types show.
 */
export function visibleGroups(ctx: EventContext, opts: { hiddenTypes?: string[]; groupIds?: string[] }): TicketGroup[] {
  return ctx.groups.filter((g) => {
    if (opts.groupIds && !opts.groupIds.includes(g.id)) return false;
    if (opts.hiddenTypes) return opts.hiddenTypes.includes(g.hidden_type);
    // Groups named by id are shown whatever their (non-hidden) type: the caller already knows them.
    return Boolean(opts.groupIds) || g.hidden_type !== 'public_member_only';
  });
}

export function typesOf(ctx: EventContext, groups: TicketGroup[]): TicketType[] {
  const ids = new Set(groups.map((g) => g.id));
  return ctx.types.filter((t) => ids.has(t.ticket_group_id));
}

/** Event-level counters of a group: flexible ones by their own usage; session groups by their per-session size. */
export function eventLevelGroupCounters(g: TicketGroup, now: Date, expiredFlexible = 0) {
  const used = Math.max(0, g.used_capacity - expiredFlexible);
  const counter = { capacity: g.capacity, oversell_capacity: g.oversell_capacity, used_capacity: g.flexible ? used : 0 };
  const remaining = availableCapacity(counter);
  return { ...counter, available_capacity: remaining, available: salesOpen(g, now) && remaining !== 0 };
}

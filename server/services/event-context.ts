import { sql } from 'kysely';
import type { Db } from '../db';
import { reviveRows } from '../db/json-rows';
import type { EventTemplate, Seller, TicketGroup, TicketType } from '../db/types';
import { DomainError } from './errors';
import { normaliseRules, type NormalRule } from '../../src/domain/message-rules';
import { availableCapacity, salesOpen } from '../../src/domain/availability';

/**
 * One event with everything the read rules need: venue timezone, groups, types and message rules.
 * Loaded in one statement per request (loadEventContext, loadEventContexts) and then worked on in memory.
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

/** What a context reads besides the event: the event's venue, groups, types and rules, each one JSON value. */
interface ContextJson {
  venue: Venue | null;
  /** ticket_group rows, their timestamps as text (reviveRows). */
  groups: unknown;
  types: TicketType[];
  rules: RawRule[];
}

/**
 * The columns of ContextJson for the event row `e`, in the orders the read rules expect (groups by rank and name, types
 * by their group's rank then their own, rules by rank). Members-only groups are in; hidden ones and their types are not.
 */
const contextColumns = sql`
  (select json_build_object('id', v.id, 'name', v.name, 'timezone', v.timezone, 'address', v.address)
    from venue v where v.id = e.venue_id) as venue,
  (select coalesce(json_agg(g order by g._rank, g.name), '[]'::json) from ticket_group g
    where g.event_template_id = e.id and g.hidden_type <> 'hidden') as groups,
  (select coalesce(json_agg(t order by g._rank, t._rank, t.name), '[]'::json)
    from ticket_type t join ticket_group g on g.id = t.ticket_group_id
    where g.event_template_id = e.id and g.hidden_type <> 'hidden') as types,
  (select coalesce(json_agg(json_build_object('id', r.id, '_rank', r._rank, 'triggers', r.triggers, 'actions', r.actions)
    order by r._rank), '[]'::json) from message_rule r where r.event_template_id = e.id) as rules`;

/**
 * One event's context in one statement: the event and ContextJson. Every uncached read of an event (its calendar,
 * sessions, page) starts here: as five statements in two round trips this was about a tenth of an uncached calendar's
 * time on PostgreSQL.
 */
export async function loadEventContext(db: Db, seller: Seller, eventId: string): Promise<EventContext> {
  const { rows } = await sql<ContextJson & { event: EventTemplate }>`
    select to_json(e) as event, ${contextColumns}
    from event_template e where e.id = ${eventId} and e.seller_id = ${seller.id} and e.hidden_type <> 'hidden'`.execute(db);
  if (!rows[0]) throw eventNotFound(eventId);
  return contextOf(seller, rows[0].event, rows[0]);
}

/** The contexts of events already read (a listing's page), in their order: one statement for all of them. */
export async function loadEventContexts(db: Db, seller: Seller, events: EventTemplate[]): Promise<EventContext[]> {
  if (!events.length) return [];
  const { rows } = await sql<ContextJson & { id: string }>`
    select e.id, ${contextColumns} from event_template e where e.id = any(${events.map((e) => e.id)}::uuid[])`.execute(db);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return events.map((event) => contextOf(seller, event, byId.get(event.id)!));
}

type Venue = NonNullable<EventContext['venue']>;
type RawRule = EventContext['rawRules'][number];

function contextOf(seller: Seller, event: EventTemplate, json: ContextJson): EventContext {
  return {
    seller,
    event,
    venue: json.venue,
    tz: json.venue?.timezone ?? seller.timezone,
    groups: reviveRows<TicketGroup[]>(json.groups),
    types: json.types,
    rules: normaliseRules(json.rules),
    rawRules: json.rules,
  };
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

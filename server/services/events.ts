import { sql } from 'kysely';
import type { Db } from '../db';
import type { EventTemplate, HiddenType, Seller } from '../db/types';
import { table } from '../../src/contract/tables';
import type { EventsAnswer, PricecheckAnswer } from '../../src/contract/catalogue';
import { eventLevelGroupCounters, loadEventContext, loadEventContexts, typesOf, visibleGroups, type EventContext } from './event-context';
import { expiredHolds } from './inventory-read';
import { embeddedSessions } from './sessions-embed';
import { eventTemplateRow, ticketGroupRow, ticketTypeRow, venueRow } from './wire';

export type EventSort = '_rank' | 'name' | 'start';
export interface AvailableEventsOptions {
  hiddenTypes: string[];
  categories?: string[];
  gte?: Date;
  lt?: Date;
  /** Venue-local 'HH:mm' bounds of a session start; end exclusive. */
  timeStart?: string;
  timeEnd?: string;
  metadata: Record<string, string>;
  embed: Set<string>;
  limit: number;
  offset: number;
  sort: { field: EventSort; descending: boolean };
}

/** Groups that are not sold per session keep an event on sale without sessions (flexible admission, gifts). */
const SESSIONLESS_HANDLERS = ['ledger', 'donation', 'membership', 'codes'] as const;

/** GET events/available: events with something to sell in the range (an active session, or a sessionless group on sale). */
export async function listAvailableEvents(db: Db, seller: Seller, o: AvailableEventsOptions, now: Date): Promise<EventsAnswer> {
  const hidden = o.hiddenTypes.filter((h) => h !== 'hidden');
  if (!hidden.length) return { event_template: table([]) };
  const from = o.gte && o.gte > now ? o.gte : now;
  const tz = sql`coalesce(v.timezone, ${seller.timezone})`;
  let q = db
    .selectFrom('event_template as e')
    .leftJoin('venue as v', 'v.id', 'e.venue_id')
    .selectAll('e')
    .where('e.seller_id', '=', seller.id)
    .where('e.hidden_type', 'in', hidden as HiddenType[]);
  if (o.categories) q = q.where('e.category', 'in', o.categories.length ? o.categories : ['']);
  for (const [key, value] of Object.entries(o.metadata)) q = q.where(sql<string>`e.metadata ->> ${key}`, '=', value);
  q = q.where((eb) => {
    // The first session by start (min: the (event, start) index read in order), not any session (exists): with
    // statistics the planner scanned the whole table for an exists, taking sessions as spread evenly over events.
    let sessions = eb
      .selectFrom('event_session as s')
      .select((s) => s.fn.min('s.start_datetime').as('first'))
      .whereRef('s.event_template_id', '=', 'e.id')
      .where('s.state', '=', 'active')
      .where('s.start_datetime', '>=', from);
    if (o.lt) sessions = sessions.where('s.start_datetime', '<', o.lt);
    if (o.timeStart) sessions = sessions.where(sql<string>`to_char(s.start_datetime at time zone ${tz}, 'HH24:MI')`, '>=', o.timeStart);
    if (o.timeEnd) sessions = sessions.where(sql<string>`to_char(s.start_datetime at time zone ${tz}, 'HH24:MI')`, '<', o.timeEnd);
    const anySession = eb(sessions, 'is not', null);
    if (o.timeStart || o.timeEnd) return anySession;
    let sessionless = eb
      .selectFrom('ticket_group as g')
      .select(sql`1`.as('one'))
      .whereRef('g.event_template_id', '=', 'e.id')
      .where('g.hidden_type', '!=', 'hidden')
      .where((g) => g.or([g('g.flexible', '=', true), g('g.handler', 'in', [...SESSIONLESS_HANDLERS])]))
      .where((g) => g.or([g('g.sales_end', 'is', null), g('g.sales_end', '>', from)]));
    if (o.lt) sessionless = sessionless.where((g) => g.or([g('g.sales_start', 'is', null), g('g.sales_start', '<', o.lt!)]));
    return eb.or([anySession, eb.exists(sessionless)]);
  });
  const events = await q.execute();
  const next = await nextSessionStarts(
    db,
    events.map((e) => e.id),
    now,
  );
  sortEvents(events, next, o.sort);
  const pageEvents = events.slice(o.offset, o.offset + o.limit);
  const out: EventsAnswer = {
    event_template: table(
      pageEvents.map((e) =>
        eventTemplateRow(e, {
          meta: o.embed.has('meta'),
          config: o.embed.has('config'),
          nextSessionStart: next.get(e.id) ?? null,
        }),
      ),
      events.length,
    ),
  };
  const wantsGroups = o.embed.has('ticket_group') || o.embed.has('ticket_type');
  if (!wantsGroups && !o.embed.has('event_session') && !o.embed.has('venue')) return out;
  const contexts = await loadEventContexts(db, seller, pageEvents);
  if (o.embed.has('venue')) {
    const venues = new Map(contexts.filter((c) => c.venue).map((c) => [c.venue!.id, venueRow(c.venue!)]));
    out.venue = table([...venues.values()]);
  }
  if (wantsGroups)
    Object.assign(
      out,
      await groupTables(
        db,
        contexts,
        hidden.includes('public_member_only') ? { hiddenTypes: ['public_browsable', 'public_link_only', 'public_member_only'] } : {},
        now,
        o.embed,
      ),
    );
  if (o.embed.has('event_session')) out.event_session = table(await embeddedSessions(db, contexts, { from, to: o.lt }, now));
  return out;
}

async function groupTables(
  db: Db,
  contexts: EventContext[],
  filter: { hiddenTypes?: string[]; groupIds?: string[] },
  now: Date,
  embed: Set<string>,
): Promise<Pick<EventsAnswer, 'ticket_group' | 'ticket_type'>> {
  const expired = await expiredHolds(
    db,
    contexts.map((c) => c.event.id),
    now,
  );
  const groupRows = [];
  const typeRows = [];
  for (const ctx of contexts) {
    const groups = visibleGroups(ctx, filter);
    const counters = new Map(groups.map((g) => [g.id, eventLevelGroupCounters(g, now, expired.get(`|${g.id}`) ?? 0)]));
    groupRows.push(...groups.map((g) => ticketGroupRow(g, counters.get(g.id)!)));
    typeRows.push(
      ...typesOf(ctx, groups).map((t) =>
        ticketTypeRow(t, {
          category: ctx.event.category,
          available: counters.get(t.ticket_group_id)!.available,
        }),
      ),
    );
  }
  return {
    ...(embed.has('ticket_group') ? { ticket_group: table(groupRows) } : {}),
    ...(embed.has('ticket_type') ? { ticket_type: table(typeRows) } : {}),
  };
}

/**
 * The earliest future active session of each event: per event, the first of its sessions by start from `now` on
 * (the (event, start) index read in order, whatever the planner's statistics say of how sessions spread over events).
 */
export async function nextSessionStarts(db: Db, eventIds: string[], now: Date): Promise<Map<string, Date>> {
  if (!eventIds.length) return new Map();
  const { rows } = await sql<{ id: string; next: Date | string | null }>`
    select e.id, (select min(s.start_datetime) from event_session s
      where s.event_template_id = e.id and s.state = 'active' and s.start_datetime >= ${now}) as next
    from unnest(${eventIds}::uuid[]) as e(id)`.execute(db);
  return new Map(rows.filter((r) => r.next !== null).map((r) => [r.id, new Date(r.next!)]));
}

function sortEvents(events: EventTemplate[], next: Map<string, Date>, sort: AvailableEventsOptions['sort']) {
  const byName = (a: EventTemplate, b: EventTemplate) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  const start = (e: EventTemplate) => next.get(e.id)?.getTime() ?? Number.POSITIVE_INFINITY;
  const cmp = {
    _rank: (a: EventTemplate, b: EventTemplate) => a._rank - b._rank || byName(a, b),
    name: byName,
    start: (a: EventTemplate, b: EventTemplate) => start(a) - start(b) || a._rank - b._rank || byName(a, b),
  }[sort.field];
  events.sort((a, b) => (sort.descending ? -cmp(a, b) : cmp(a, b)));
}

export interface EventDetailOptions {
  embed: Set<string>;
  groupIds?: string[];
  hiddenTypes?: string[];
}

/** GET events/{id}: the event (any hidden type but 'hidden', so link-only events open by id) and its embeds. */
export async function getEvent(db: Db, seller: Seller, eventId: string, o: EventDetailOptions, now: Date): Promise<EventsAnswer> {
  const ctx = await loadEventContext(db, seller, eventId);
  const next = await nextSessionStarts(db, [ctx.event.id], now);
  const out: EventsAnswer = {
    event_template: table([
      eventTemplateRow(ctx.event, {
        meta: o.embed.has('meta'),
        config: o.embed.has('config'),
        nextSessionStart: next.get(ctx.event.id) ?? null,
      }),
    ]),
  };
  if (o.embed.has('venue')) out.venue = table(ctx.venue ? [venueRow(ctx.venue)] : []);
  if (o.embed.has('ticket_group') || o.embed.has('ticket_type')) Object.assign(out, await groupTables(db, [ctx], o, now, o.embed));
  if (o.embed.has('message_rule')) out.message_rule = table(ctx.rawRules.map((r) => ({ ...r, event_template_id: ctx.event.id })));
  if (o.embed.has('ticket_rule')) {
    const rules = await db
      .selectFrom('ticket_rule')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_rule.ticket_group_id')
      .select([
        'ticket_rule.id',
        'ticket_rule.ticket_group_id',
        'ticket_rule.ticket_type_id',
        'ticket_rule.party_role',
        'ticket_rule.named',
        'ticket_rule.emailed',
        'ticket_rule.min',
        'ticket_rule.max',
      ])
      .where('ticket_group.event_template_id', '=', ctx.event.id)
      .orderBy('ticket_rule.id')
      .execute();
    out.ticket_rule = table(rules);
  }
  return out;
}

/** POST events/{id}/pricecheck: the asked types of this event, ordered by group, with their groups. */
export async function pricecheck(db: Db, seller: Seller, eventId: string, typeIds: string[], now: Date): Promise<PricecheckAnswer> {
  const ctx = await loadEventContext(db, seller, eventId);
  const groups = ctx.groups.filter((g) => ctx.types.some((t) => t.ticket_group_id === g.id && typeIds.includes(t.id)));
  const expired = await expiredHolds(db, [ctx.event.id], now);
  const counters = new Map(groups.map((g) => [g.id, eventLevelGroupCounters(g, now, expired.get(`|${g.id}`) ?? 0)]));
  const types = groups.flatMap((g) => ctx.types.filter((t) => t.ticket_group_id === g.id && typeIds.includes(t.id)));
  return {
    ticket_type: table(
      types.map((t) => ticketTypeRow(t, { category: ctx.event.category, available: counters.get(t.ticket_group_id)!.available })),
    ),
    ticket_group: table(groups.map((g) => ticketGroupRow(g, counters.get(g.id)!))),
  };
}

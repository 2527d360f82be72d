import type { Db } from '../db';
import type { Seller, TicketGroup, TicketType } from '../db/types';
import { DomainError } from './errors';
import { money } from '../../src/domain/money';
import { table } from '../../src/contract/tables';
import type { SessionsAnswer } from '../../src/contract/catalogue';
import { quantitiesFit, type GroupDemand, type GroupSupply } from '../../src/domain/availability';
import { venueDayRange } from '../../src/domain/dates';
import { sessionMessages } from '../../src/domain/message-rules';
import { cheapest, effectivePrice } from '../../src/domain/pricing';
import { eventLevelGroupCounters, isSessionSold, loadEventContext, visibleGroups, type EventContext } from './event-context';
import { expiredHolds, loadSessionStates, type SessionState } from './inventory-read';
import { sessionRow, ticketGroupRow, ticketTypeRow, venueRow, type SessionFigures } from './wire';

export interface SessionListOptions {
  limit: number;
  offset: number;
  includeSoldOut: boolean;
  descending: boolean;
  gte?: Date;
  lt?: Date;
  /** YYYY-MM-DD in the venue timezone. */
  ondate?: string;
  groupIds?: string[];
  embed: Set<string>;
}

/**
 * The groups whose capacity decides a session: the named ones, else the public session-sold groups
 * (members-only groups decide only for an event that has nothing else, such as a members-only event).
 */
export function consideredGroups(ctx: EventContext, groupIds?: string[]): TicketGroup[] {
  const sold = ctx.groups.filter((g) => isSessionSold(g));
  if (groupIds) return sold.filter((g) => groupIds.includes(g.id));
  const publicGroups = sold.filter((g) => g.hidden_type !== 'public_member_only');
  return publicGroups.length ? publicGroups : sold;
}

/** The event's configured primary ticket type (config.web.price_display.primary_ticket_type_id). */
export function primaryType(ctx: EventContext, types: TicketType[]): TicketType | undefined {
  const display = ctx.event.config?.web?.price_display ?? {};
  const primary = display.primary_ticket_type_id ?? display.primary;
  if (typeof primary !== 'string') return undefined;
  return types.find((t) => t.id === primary || t.key === primary || t.name === primary);
}

/** minPrice over the public types of groups still available in the session (all groups when none is). */
export function sessionFigures(ctx: EventContext, state: SessionState, groups: TicketGroup[]): SessionFigures {
  const open = groups.filter((g) => (state.groups.get(g.id)?.available ?? 0) !== 0);
  const pool = (open.length ? open : groups).map((g) => g.id);
  const types = ctx.types.filter((t) => pool.includes(t.ticket_group_id) && !t.member_only);
  const increase = state.session.price_increase;
  const low = cheapest(types, increase);
  const primary = primaryType(ctx, types);
  const minPrice = low ? effectivePrice(low, increase) : null;
  const texts = sessionMessages(ctx.rules, state.date, state.time);
  return {
    available: state.available,
    used: state.used,
    soldOut: state.soldOut,
    minPrice,
    price: primary ? effectivePrice(primary, increase) : minPrice,
    annotations: [...(Array.isArray(state.session.annotations) ? state.session.annotations : []), ...texts.annotations],
    messages: texts.messages,
  };
}

function range(ctx: EventContext, o: SessionListOptions): { from?: Date; to?: Date } {
  let from = o.gte;
  let to = o.lt;
  if (o.ondate) {
    const day = venueDayRange(o.ondate, ctx.tz);
    from = from && from > day.start ? from : day.start;
    to = to && to < day.end ? to : day.end;
  }
  return { from, to };
}

function venueTable(ctx: EventContext, embed: Set<string>): Pick<SessionsAnswer, 'venue'> {
  return embed.has('venue') ? { venue: table(ctx.venue ? [venueRow(ctx.venue)] : []) } : {};
}

/** GET events/{id}/sessions: future active sessions, sold-out ones hidden unless asked. */
export async function listSessions(db: Db, seller: Seller, eventId: string, o: SessionListOptions, now: Date): Promise<SessionsAnswer> {
  const ctx = await loadEventContext(db, seller, eventId);
  const groups = consideredGroups(ctx, o.groupIds);
  const states = await loadSessionStates(db, ctx, groups, range(ctx, o), now);
  const shown = states.filter((s) => o.includeSoldOut || !s.soldOut);
  if (o.descending) shown.reverse();
  const rows = shown.slice(o.offset, o.offset + o.limit).map((s) => sessionRow(s.session, sessionFigures(ctx, s, groups)));
  return { event_session: table(rows, shown.length), ...venueTable(ctx, o.embed) };
}

export interface TicketLine {
  ticket_type_id: string;
  quantity: number;
}

/** Resolves requested lines to types and groups; checks the groups not sold per session once. */
export async function buildDemand(db: Db, ctx: EventContext, lines: TicketLine[], now: Date) {
  const byId = new Map(ctx.types.map((t) => [t.id, t]));
  const unknown = lines.filter((l) => !byId.has(l.ticket_type_id)).map((l) => l.ticket_type_id);
  if (unknown.length) {
    throw new DomainError('ticket_type_not_found', 'Resource ticket_type not found.', undefined, { resource: 'ticket_type', ids: unknown });
  }
  const groupOf = new Map(ctx.groups.map((g) => [g.id, g]));
  const quantities = new Map<string, number>();
  for (const l of lines) quantities.set(l.ticket_type_id, (quantities.get(l.ticket_type_id) ?? 0) + l.quantity);
  const demand: Array<GroupDemand & { group: TicketGroup }> = [...quantities].map(([typeId, quantity]) => {
    const group = groupOf.get(byId.get(typeId)!.ticket_group_id)!;
    return { ticket_group_id: group.id, quantity, countsTowardSession: !group.exclude_from_event_capacity, group };
  });
  const sessionDemand = demand.filter((d) => isSessionSold(d.group));
  const otherDemand = demand.filter((d) => !isSessionSold(d.group));
  // Groups not sold per session must fit on their own, whatever the session.
  const expired = otherDemand.length ? await expiredHolds(db, [ctx.event.id], now) : new Map<string, number>();
  const otherSupply = new Map<string, GroupSupply>(
    otherDemand.map((d) => [
      d.ticket_group_id,
      {
        available: eventLevelGroupCounters(d.group, now, expired.get(`|${d.group.id}`) ?? 0).available_capacity,
        max_tickets_per_order: d.group.max_tickets_per_order,
      },
    ]),
  );
  const othersFit =
    quantitiesFit(
      otherDemand.map((d) => ({ ...d, countsTowardSession: false })),
      otherSupply,
      -1,
    ) === null;
  /** Whether the lines fit one session, given the groups its state was computed for. */
  const fitsSession = (state: SessionState, groups: TicketGroup[]) => {
    const supply = new Map<string, GroupSupply>(
      groups.map((g) => [
        g.id,
        {
          available: state.groups.get(g.id)?.available ?? 0,
          max_tickets_per_order: g.max_tickets_per_order,
        },
      ]),
    );
    return othersFit && quantitiesFit(sessionDemand, supply, state.available) === null;
  };
  /** The selection's total at a session (session price increases apply to session-sold groups). */
  const totalAt = (state: SessionState) =>
    [...quantities].reduce((sum, [typeId, quantity]) => {
      const t = byId.get(typeId)!;
      return sum + effectivePrice(t, isSessionSold(groupOf.get(t.ticket_group_id)!) ? state.session.price_increase : 0) * quantity;
    }, 0);
  return { byId, groupOf, quantities, sessionDemand, othersFit, fitsSession, totalAt };
}

/** POST events/{id}/sessions: sessions where the given quantities fit, and each session's prices. */
export async function sessionsForQuantities(
  db: Db,
  seller: Seller,
  eventId: string,
  lines: TicketLine[],
  o: SessionListOptions,
  now: Date,
): Promise<SessionsAnswer> {
  const ctx = await loadEventContext(db, seller, eventId);
  const { byId, groupOf, quantities, sessionDemand, fitsSession } = await buildDemand(db, ctx, lines, now);
  // The asked quantities decide: their own groups' capacity, not the other groups'.
  const groups = consideredGroups(ctx, [...new Set(sessionDemand.map((d) => d.ticket_group_id))]);
  const states = await loadSessionStates(db, ctx, groups, range(ctx, o), now);
  const rows = states.map((state) => ({ state, fits: fitsSession(state, groups) })).filter((r) => r.fits || o.includeSoldOut);
  if (o.descending) rows.reverse();
  const pageRows = rows.slice(o.offset, o.offset + o.limit);
  const schedule = pageRows.flatMap(({ state }) =>
    [...quantities].map(([typeId, quantity]) => {
      const t = byId.get(typeId)!;
      const increase = isSessionSold(groupOf.get(t.ticket_group_id)!) ? state.session.price_increase : 0;
      const unit = effectivePrice(t, increase);
      return {
        event_session_id: state.session.id,
        ticket_type_id: typeId,
        ticket_group_id: t.ticket_group_id,
        quantity,
        currency_amount: money(t.price + increase),
        unit_amount: money(unit),
        total_amount: money(unit * quantity),
      };
    }),
  );
  return {
    event_session: table(
      pageRows.map(({ state, fits }) => sessionRow(state.session, { ...sessionFigures(ctx, state, groups), soldOut: !fits })),
      rows.length,
    ),
    price_schedule: table(schedule),
    ...venueTable(ctx, o.embed),
  };
}

/** GET events/{id}/sessions/{sid}; with group ids (or _embed ticket_group), the groups' per-session figures. */
export async function getSession(
  db: Db,
  seller: Seller,
  eventId: string,
  sessionId: string,
  o: { groupIds?: string[]; hiddenTypes?: string[]; embed: Set<string> },
  now: Date,
): Promise<SessionsAnswer> {
  const ctx = await loadEventContext(db, seller, eventId);
  const all = consideredGroups(ctx);
  const [state] = await loadSessionStates(db, ctx, all, { sessionIds: [sessionId], includePast: true }, now);
  if (!state) {
    throw new DomainError('event_session_not_found', 'Resource event_session not found.', undefined, {
      resource: 'event_session',
      id: sessionId,
    });
  }
  const out: SessionsAnswer = {
    event_session: table([sessionRow(state.session, sessionFigures(ctx, state, all))]),
    ...venueTable(ctx, o.embed),
  };
  if (!o.groupIds && !o.embed.has('ticket_group') && !o.embed.has('ticket_type')) return out;
  const shown = visibleGroups(ctx, o);
  const expired = await expiredHolds(db, [ctx.event.id], now);
  const counters = new Map(
    shown.map((g) => {
      const gs = state.groups.get(g.id);
      if (!gs) return [g.id, eventLevelGroupCounters(g, now, expired.get(`|${g.id}`) ?? 0)];
      const sessionLimited = !g.exclude_from_event_capacity && state.available === 0;
      return [g.id, { ...gs, available_capacity: gs.available, available: gs.available !== 0 && !sessionLimited }];
    }),
  );
  out.ticket_group = table(shown.map((g) => ticketGroupRow(g, counters.get(g.id)!)));
  const shownIds = new Set(shown.map((g) => g.id));
  out.ticket_type = table(
    ctx.types
      .filter((t) => shownIds.has(t.ticket_group_id))
      .map((t) =>
        ticketTypeRow(t, {
          category: ctx.event.category,
          available: counters.get(t.ticket_group_id)!.available,
          increase: state.groups.has(t.ticket_group_id) ? state.session.price_increase : 0,
        }),
      ),
  );
  return out;
}

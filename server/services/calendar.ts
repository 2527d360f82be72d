import type { Db } from '../db';
import type { Seller } from '../db/types';
import { DomainError } from './errors';
import { money } from '../../src/domain/money';
import { table } from '../../src/contract/tables';
import { CALENDAR_MAX_TICKET_TYPES } from '../../src/contract/limits';
import type { CalendarAnswer, CalendarDayRow } from '../../src/contract/catalogue';
import { fewTicketsLeft, FEW_TICKETS_THRESHOLD, sumAvailable } from '../../src/domain/availability';
import { addDays, datesInRange, daysBetween, longDateLabel, startOfVenueDay, todayAt } from '../../src/domain/dates';
import { dateMessages } from '../../src/domain/message-rules';
import { cheapest, effectivePrice, formatMoney, totalOutsideFees } from '../../src/domain/pricing';
import { isSessionSold, loadEventContext, type EventContext } from './event-context';
import { loadSessionStates, type SessionState } from './inventory-read';
import { buildDemand, consideredGroups, sessionFigures, type TicketLine } from './sessions';
import type { SessionFigures } from './wire';

/** Without end_date a calendar covers 120 days from start_date (default today at the venue). */
export const CALENDAR_DEFAULT_DAYS = 120;
export const CALENDAR_MAX_DAYS = 400;

export interface CalendarOptions {
  format: 'price' | 'extended';
  groupIds?: string[];
  startDate?: string;
  endDate?: string;
  tickets?: TicketLine[];
}

type Status = 'available' | 'sold_out' | 'unavailable';
const STATUS_LABEL: Record<Status, string> = { available: 'Available', sold_out: 'Sold out', unavailable: 'Unavailable' };

/**
 * GET/POST events/{id}/calendar: one row per venue-local date. Three queries for the whole range
 * (sessions, their group rows, expired holds) after the event itself; the days are built in memory.
 */
export async function getCalendar(db: Db, seller: Seller, eventId: string, o: CalendarOptions, now: Date): Promise<CalendarAnswer> {
  const distinctTypes = new Set((o.tickets ?? []).map((t) => t.ticket_type_id));
  if (distinctTypes.size > CALENDAR_MAX_TICKET_TYPES) {
    throw new DomainError('validation_failed', 'You can only select up to 10 different types of tickets.', 'event_calendar', {
      field: 'body.tickets',
      max: CALENDAR_MAX_TICKET_TYPES,
    });
  }
  const ctx = await loadEventContext(db, seller, eventId);
  const start = o.startDate ?? todayAt(ctx.tz, now);
  const end = o.endDate ?? addDays(start, CALENDAR_DEFAULT_DAYS - 1);
  if (end < start)
    throw new DomainError('validation_failed', 'end_date is before start_date.', 'event_calendar', { field: 'query.end_date' });
  if (daysBetween(start, end) > CALENDAR_MAX_DAYS) {
    throw new DomainError('validation_failed', `A calendar spans at most ${CALENDAR_MAX_DAYS} days.`, 'event_calendar', {
      field: 'query.end_date',
    });
  }
  const demand = o.tickets?.length ? await buildDemand(db, ctx, o.tickets, now) : null;
  const groups = demand
    ? consideredGroups(ctx, [...new Set(demand.sessionDemand.map((d) => d.ticket_group_id))])
    : consideredGroups(ctx, o.groupIds);
  const states = await loadSessionStates(
    db,
    ctx,
    groups,
    { from: startOfVenueDay(start, ctx.tz), to: startOfVenueDay(addDays(end, 1), ctx.tz) },
    now,
  );

  const byDate = new Map<string, SessionState[]>();
  for (const s of states) {
    const list = byDate.get(s.date);
    if (list) list.push(s);
    else byDate.set(s.date, [s]);
  }
  // Each session's figures once, whatever the number of days that look at them.
  const figures = new Map<string, SessionFigures>();
  const figuresOf = (s: SessionState) => {
    let f = figures.get(s.session.id);
    if (!f) figures.set(s.session.id, (f = sessionFigures(ctx, s, groups)));
    return f;
  };
  const threshold = ctx.seller.config?.web?.show_remaining_session_capacity_threshold ?? FEW_TICKETS_THRESHOLD;
  const prefix = ctx.event.config?.web?.price_display?.primary_prefix ?? ctx.event.config?.web?.price_display?.prefix ?? null;
  const locale = ctx.seller.config?.locale ?? 'en-US';

  const rows = datesInRange(start, end).map((date) => {
    const sessions = byDate.get(date) ?? [];
    const open = sessions.filter((s) => (demand ? demand.fitsSession(s, groups) : !s.soldOut));
    const status: Status = !sessions.length ? 'unavailable' : open.length ? 'available' : 'sold_out';
    const priced = open.length ? open : sessions;
    const { price, minPrice, fees, increased } = dayPrices(ctx, priced, groups, demand, figuresOf);
    const texts = dateMessages(ctx.rules, date);
    const row: CalendarDayRow = {
      date,
      enabled: status === 'available',
      status,
      price: money(price),
      min_price: money(minPrice),
      min_price_fees: { outside: money(fees) },
      pricePrefix: prefix,
    };
    if (o.format === 'price') return row;
    const remaining = sumAvailable(open.map((s) => s.available));
    const badges = [
      ...(status === 'available' && fewTicketsLeft(remaining, threshold ?? FEW_TICKETS_THRESHOLD) ? ['few_left'] : []),
      ...(increased ? ['price_increase'] : []),
    ];
    // The price the day shows (the primary type's when the event names one), as the date buttons draw it.
    const shown = price ?? minPrice;
    const priceText = shown !== null && status === 'available' ? `, from ${formatMoney(shown, ctx.seller.currency, locale)}` : '';
    return {
      ...row,
      availability: {
        capacity: sumAvailable(sessions.map((s) => s.session.capacity)),
        used_capacity: sessions.reduce((sum, s) => sum + s.used, 0),
      },
      badges,
      annotations: texts.annotations,
      tooltip: texts.tooltip,
      ariaLabel: `${longDateLabel(date)}, ${STATUS_LABEL[status]}${priceText}`,
    };
  });
  return { calendar: table(rows) };
}

type Demand = Awaited<ReturnType<typeof buildDemand>>;

/** A day's prices: the cheapest session (for a selection, its total), the primary type's price, the fees on it. */
function dayPrices(
  ctx: EventContext,
  sessions: SessionState[],
  groups: EventContext['groups'],
  demand: Demand | null,
  figuresOf: (s: SessionState) => SessionFigures,
) {
  let best: { state: SessionState; amount: number; price: number } | null = null;
  for (const s of sessions) {
    if (demand) {
      const total = demand.totalAt(s);
      if (!best || total < best.amount) best = { state: s, amount: total, price: total };
      continue;
    }
    const f = figuresOf(s);
    if (f.minPrice !== null && (!best || f.minPrice < best.amount)) best = { state: s, amount: f.minPrice, price: f.price ?? f.minPrice };
  }
  if (!best) return { price: null, minPrice: null, fees: null, increased: false };
  const increase = best.state.session.price_increase;
  let fees = 0;
  if (demand) {
    for (const [typeId, quantity] of demand.quantities) {
      const t = demand.byId.get(typeId)!;
      const unit = effectivePrice(t, isSessionSold(demand.groupOf.get(t.ticket_group_id)!) ? increase : 0);
      fees += totalOutsideFees(unit, t.outside_fees) * quantity;
    }
  } else {
    const pool = new Set(groups.map((g) => g.id));
    const low = cheapest(
      ctx.types.filter((t) => pool.has(t.ticket_group_id) && !t.member_only),
      increase,
    );
    fees = low ? totalOutsideFees(effectivePrice(low, increase), low.outside_fees) : 0;
  }
  return { price: best.price, minPrice: best.amount, fees, increased: increase > 0 };
}

import type { Db } from '../db';
import type { Seller } from '../db/types';
import { DomainError } from './errors';
import { money } from '../../src/domain/money';
import { table } from '../../src/contract/tables';
import { CALENDAR_MAX_TICKET_TYPES } from '../../src/contract/limits';
import type { CalendarAnswer, CalendarDayRow } from '../../src/contract/catalogue';
import { fewTicketsLeft, FEW_TICKETS_THRESHOLD, sumAvailable } from '../../src/domain/availability';
import { addDays, datesInRange, daysBetween, startOfVenueDay, todayAt } from '../../src/domain/dates';
import { keptLongDateLabel } from './calendar-dates';
import { dateMessages } from '../../src/domain/message-rules';
import { cheapest, effectivePrice, formatMoney, totalOutsideFees } from '../../src/domain/pricing';
import { isSessionSold, loadEventContext, type EventContext } from './event-context';
import { loadSessionStates, type SessionState } from './inventory-read';
import { buildDemand, consideredGroups, sessionFigures, type TicketLine } from './sessions';
import { loadCalendarDays, type DayFigures } from './calendar-days';

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
 * GET/POST events/{id}/calendar: one row per venue-local date. After the event itself, one statement aggregates the
 * range per venue day (calendar-days.ts); a selection of tickets is checked per session in memory instead.
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
  const summaries = demand
    ? await calendarDaysFromStates(db, ctx, groups, demand, start, end, now)
    : await loadCalendarDays(db, ctx, groups, start, end, now);
  const threshold = ctx.seller.config?.web?.show_remaining_session_capacity_threshold ?? FEW_TICKETS_THRESHOLD;
  const prefix = ctx.event.config?.web?.price_display?.primary_prefix ?? ctx.event.config?.web?.price_display?.prefix ?? null;
  const locale = ctx.seller.config?.locale ?? 'en-US';

  // The day's fees depend on its price increase only: worked out once per distinct increase, not once per day.
  const feesAt = new Map<number, number>();
  const feesOf = (increase: number) => {
    let fees = feesAt.get(increase);
    if (fees === undefined) feesAt.set(increase, (fees = dayFees(ctx, groups, demand, increase)));
    return fees;
  };

  const rows = datesInRange(start, end).map((date) => {
    const day = summaries.get(date);
    const status: Status = !day ? 'unavailable' : day.open ? 'available' : 'sold_out';
    const price = day?.price ?? null;
    const minPrice = day?.minPrice ?? null;
    const increase = day?.increase ?? null;
    const fees = increase === null ? null : feesOf(increase);
    const texts = dateMessages(ctx.rules, date);
    const enabled = status === 'available';
    const priced = {
      price: money(price),
      min_price: money(minPrice),
      min_price_fees: { outside: money(fees) },
      pricePrefix: prefix,
    };
    if (o.format === 'price') return { date, enabled, status, ...priced } satisfies CalendarDayRow;
    const remaining = day?.remaining ?? 0;
    const badges: string[] = [];
    if (enabled && fewTicketsLeft(remaining, threshold ?? FEW_TICKETS_THRESHOLD)) badges.push('few_left');
    if (increase !== null && increase > 0) badges.push('price_increase');
    // The price the day shows (the primary type's when the event names one), as the date buttons draw it.
    const shown = price ?? minPrice;
    const priceText = shown !== null && enabled ? `, from ${formatMoney(shown, ctx.seller.currency, locale)}` : '';
    return {
      date,
      enabled,
      status,
      ...priced,
      availability: { capacity: day?.capacity ?? 0, used_capacity: day?.used ?? 0 },
      badges,
      annotations: texts.annotations,
      tooltip: texts.tooltip,
      ariaLabel: `${keptLongDateLabel(date)}, ${STATUS_LABEL[status]}${priceText}`,
    };
  });
  return { calendar: table(rows) };
}

type Demand = Awaited<ReturnType<typeof buildDemand>>;

/**
 * The days of a selection (POST with tickets) from the sessions' states in memory: whether the quantities fit a
 * session depends on every demanded group's per-order maximum, so this path stays in JavaScript. Without a
 * selection it computes what loadCalendarDays() does in SQL (the test comparing both passes null).
 */
export async function calendarDaysFromStates(
  db: Db,
  ctx: EventContext,
  groups: EventContext['groups'],
  demand: Demand | null,
  start: string,
  end: string,
  now: Date,
): Promise<Map<string, DayFigures>> {
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
  const out = new Map<string, DayFigures>();
  for (const [date, sessions] of byDate) {
    const open = sessions.filter((s) => (demand ? demand.fitsSession(s, groups) : !s.soldOut));
    const priced = open.length ? open : sessions;
    let best: { state: SessionState; amount: number; price: number } | null = null;
    for (const s of priced) {
      if (demand) {
        const total = demand.totalAt(s);
        if (!best || total < best.amount) best = { state: s, amount: total, price: total };
        continue;
      }
      const f = sessionFigures(ctx, s, groups);
      if (f.minPrice !== null && (!best || f.minPrice < best.amount)) best = { state: s, amount: f.minPrice, price: f.price ?? f.minPrice };
    }
    out.set(date, {
      sessions: sessions.length,
      open: open.length,
      minPrice: best?.amount ?? null,
      price: best?.price ?? null,
      increase: best ? best.state.session.price_increase : null,
      remaining: sumAvailable(open.map((s) => s.available)),
      capacity: sumAvailable(sessions.map((s) => s.session.capacity)),
      used: sessions.reduce((sum, s) => sum + s.used, 0),
    });
  }
  return out;
}

/** The outside fees on the day's price: the selection's, else the cheapest public type's at the session's increase. */
function dayFees(ctx: EventContext, groups: EventContext['groups'], demand: Demand | null, increase: number): number {
  let fees = 0;
  if (demand) {
    for (const [typeId, quantity] of demand.quantities) {
      const t = demand.byId.get(typeId)!;
      const unit = effectivePrice(t, isSessionSold(demand.groupOf.get(t.ticket_group_id)!) ? increase : 0);
      fees += totalOutsideFees(unit, t.outside_fees) * quantity;
    }
    return fees;
  }
  const pool = new Set(groups.map((g) => g.id));
  const low = cheapest(
    ctx.types.filter((t) => pool.has(t.ticket_group_id) && !t.member_only),
    increase,
  );
  return low ? totalOutsideFees(effectivePrice(low, increase), low.outside_fees) : 0;
}

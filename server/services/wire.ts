import type { EventSession, EventTemplate, TicketGroup, TicketType } from '../db/types';
import { money } from '../../src/domain/money';
import type { EventTemplateRow, SessionRow, TicketGroupRow, TicketTypeRow, VenueRow } from '../../src/contract/catalogue';
import { outsideFees, type FeeSpec } from '../../src/domain/pricing';

/** Wire rows of spec section 3. Money leaves the server here, as decimal strings. */

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export interface TypeContext {
  category: string;
  available: boolean;
  increase?: number;
}

export function ticketTypeRow(t: TicketType, ctx: TypeContext): TicketTypeRow {
  const increase = ctx.increase ?? 0;
  const price = t.price + increase;
  return {
    id: t.id,
    name: t.name,
    _rank: t._rank,
    summary: t.summary,
    description: t.description,
    currency_amount: money(price),
    currency_amount_min: money(t.price_min),
    currency_amount_max: money(t.price_max),
    discounted_amount: t.discounted_price === null ? null : money(t.discounted_price + increase),
    outside_fees: outsideFees(price, t.outside_fees as FeeSpec[]).map((f, i) => {
      const spec = (t.outside_fees as FeeSpec[])[i];
      return {
        name: f.name,
        fee: money(f.fee),
        fixed: money(Math.max(0, Math.round(spec.fixed ?? 0))),
        percent: Math.max(0, spec.percent ?? 0),
      };
    }),
    ticket_group_id: t.ticket_group_id,
    event_template_category: ctx.category,
    member_only: t.member_only,
    available: ctx.available,
  };
}

export interface GroupCounters {
  capacity: number;
  oversell_capacity: number;
  used_capacity: number;
  available_capacity: number;
  available: boolean;
}

export function ticketGroupRow(g: TicketGroup, counters: GroupCounters): TicketGroupRow {
  return {
    id: g.id,
    event_template_id: g.event_template_id,
    name: g.name,
    description: g.description,
    summary: g.summary,
    color: g.color,
    handler: g.handler,
    hidden_type: g.hidden_type,
    _rank: g._rank,
    flexible: g.flexible,
    min_tickets_per_order: g.min_tickets_per_order,
    max_tickets_per_order: g.max_tickets_per_order,
    capacity: counters.capacity,
    oversell_capacity: counters.oversell_capacity,
    used_capacity: counters.used_capacity,
    available_capacity: counters.available_capacity,
    exclude_from_event_capacity: g.exclude_from_event_capacity,
    available: counters.available,
    sales_start: iso(g.sales_start),
    sales_end: iso(g.sales_end),
    start_policy: g.start_policy,
    start_policy_date: iso(g.start_policy_date),
    duration_new: g.duration_new,
    additional_info_spec: g.additional_info_spec,
    meta: g.meta,
    config: g.config,
  };
}

export interface EventRowOptions {
  meta: boolean;
  config: boolean;
  nextSessionStart: Date | null;
}

export function eventTemplateRow(e: EventTemplate, opts: EventRowOptions): EventTemplateRow {
  return {
    id: e.id,
    seller_id: e.seller_id,
    name: e.name,
    category: e.category,
    subtitle: e.subtitle,
    summary: e.summary,
    description: e.description,
    event_type: e.event_type,
    hidden_type: e.hidden_type,
    venue_id: e.venue_id,
    _rank: e._rank,
    metadata: e.metadata,
    next_session_start: iso(opts.nextSessionStart),
    ...(opts.meta ? { meta: e.meta } : {}),
    ...(opts.config ? { config: e.config } : {}),
  };
}

export function venueRow(v: { id: string; name: string; timezone: string; address: unknown }): VenueRow {
  return { id: v.id, name: v.name, timezone: v.timezone, address: v.address };
}

export interface SessionFigures {
  available: number;
  used: number;
  soldOut: boolean;
  minPrice: number | null;
  price: number | null;
  annotations: string[];
  messages: string[];
}

export function sessionRow(s: EventSession, f: SessionFigures): SessionRow {
  return {
    id: s.id,
    event_template_id: s.event_template_id,
    start_datetime: s.start_datetime.toISOString(),
    end_datetime: s.end_datetime.toISOString(),
    capacity: s.capacity,
    used_capacity: f.used,
    oversell_capacity: s.oversell_capacity,
    sold_out: f.soldOut,
    availableCapacity: f.available,
    minPrice: f.minPrice === null ? null : money(f.minPrice),
    price: f.price === null ? null : money(f.price),
    priceIncrease: money(s.price_increase),
    annotations: f.annotations,
    messages: f.messages,
  };
}

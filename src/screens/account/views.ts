/**
 * What the account pages show, built from the API tables without I/O or React (unit-tested):
 * membership details, auto-renew status, orders with their tickets, upcoming visits.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import type {
  MyMembershipsAnswer as MembershipResponse,
  MyOrdersAnswer,
  MySessionsAnswer as OrderSessionsResponse,
} from '../../contract/account';
import type { OrderAnswer, TicketRow as AccountTicketRow } from '../../contract/cart';

type OrdersResponse = MyOrdersAnswer | OrderAnswer;
type AccountTables = Omit<MyOrdersAnswer, 'ticket_order'>;
import { activeMemberships } from '../../domain/session';
import { sessionLabel } from '../../domain/dates';
import { seatPlace } from '../../domain/seat-place';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Spec section 4: scheduled shows Enrolled (with a cancel link), cancelled shows Cancelled, otherwise Not enrolled. */
export type AutoRenewStatus = 'enrolled' | 'cancelled' | 'not_enrolled';
export function autoRenewStatus(state: string | null | undefined): AutoRenewStatus {
  if (state === 'scheduled') return 'enrolled';
  if (state === 'cancelled') return 'cancelled';
  return 'not_enrolled';
}

/** Spec section 9 order date format 'ddd, MMMM D YYYY', at the venue. */
export function orderDateLabel(iso: string | null | undefined, tz: string): string {
  return iso ? dayjs(iso).tz(tz).format('ddd, MMMM D YYYY') : '';
}

/** A membership term's day ('MMMM D, YYYY') at the venue. */
export function termDateLabel(iso: string | null | undefined, tz: string): string {
  return iso ? dayjs(iso).tz(tz).format('MMMM D, YYYY') : '';
}

export interface MembershipView {
  id: string;
  level: string;
  program: string;
  validFrom: string;
  validTo: string;
  scanCode: string;
  autoRenew: AutoRenewStatus;
  active: boolean;
  orderId: string | null;
  /** who the membership covers: the named members' names */
  memberNames: string[];
}

/** The membership card's QR image (GET membership/{id}/qrcode), for the logged-in member (the cookie travels with the img request). */
export function membershipQrUrl(apiBaseUrl: string, membershipId: string, seller: string): string {
  const base = apiBaseUrl.endsWith('/') ? apiBaseUrl.slice(0, -1) : apiBaseUrl;
  return `${base}/membership/${encodeURIComponent(membershipId)}/qrcode?${new URLSearchParams({ _seller: seller })}`;
}

/** The user's memberships, the current ones first (the API sends the newest term first). */
export function membershipViews(response: MembershipResponse | null, now: Date, tz: string): MembershipView[] {
  const rows = response?.membership?._data ?? [];
  const active = new Set(activeMemberships(rows, now).map((m) => m.id));
  const roles = response?.role?._data ?? [];
  const programs = response?.membership_program?._data ?? [];
  const views = rows.map((m) => ({
    id: m.id,
    level: roles.find((r) => r.id === m.role_id)?.name ?? '',
    program: programs.find((p) => p.id === m.membership_program_id)?.name ?? '',
    validFrom: termDateLabel(m.valid_from, tz),
    validTo: termDateLabel(m.valid_to, tz),
    scanCode: m.scan_code ?? '',
    autoRenew: autoRenewStatus(m.auto_renew_state),
    active: active.has(m.id),
    orderId: m.ticket_order_id ?? null,
    memberNames: (m.members ?? []).map((x) => x.name).filter((n): n is string => Boolean(n)),
  }));
  return [...views.filter((v) => v.active), ...views.filter((v) => !v.active)];
}

export interface TicketView {
  id: string;
  event: string;
  type: string;
  when: string;
  admitName: string;
  /** the seat's place (section, row, number) of a seated ticket */
  seat: ReturnType<typeof seatPlace> | null;
  scanCode: string;
  state: string;
}

function nameOf(table: { _data: Array<{ id: string; name: string }> } | undefined, id: string | null | undefined): string {
  return (id && table?._data.find((row) => row.id === id)?.name) || '';
}

export function ticketViews(tables: AccountTables, tickets: AccountTicketRow[], tz: string): TicketView[] {
  return tickets.map((t) => ({
    id: t.id,
    event: nameOf(tables.event_template, t.event_template_id),
    type: nameOf(tables.ticket_type, t.ticket_type_id),
    when: t.start_datetime ? sessionLabel(t.start_datetime, t.timezone ?? tz) : '',
    admitName: t.admit_name ?? '',
    seat: t.seat ? seatPlace(t.seat) : null,
    scanCode: t.scan_code ?? '',
    state: t.state,
  }));
}

export interface OrderView {
  id: string;
  number: string;
  purchasedOn: string;
  total: string;
  events: string[];
  ticketCount: number;
  tickets: TicketView[];
}

/** Orders, newest first as the API sends them, each with its tickets. */
export function orderViews(response: OrdersResponse | null, tz: string): OrderView[] {
  if (!response) return [];
  const tickets = response.ticket?._data ?? [];
  return response.ticket_order._data.map((o) => {
    const mine = ticketViews(
      response,
      tickets.filter((t) => t.ticket_order_id === o.id),
      tz,
    );
    return {
      id: o.id,
      number: o.order_number,
      purchasedOn: orderDateLabel(o.purchased_on, tz),
      total: o.total_after_fees_price,
      events: [...new Set(mine.map((t) => t.event).filter(Boolean))],
      ticketCount: mine.length,
      tickets: mine,
    };
  });
}

export interface VisitView {
  id: string;
  event: string;
  when: string;
  ticketCount: number;
  orderIds: string[];
  tickets: TicketView[];
}

/** Upcoming visits: the sessions of the user's booked or redeemed tickets, soonest first. */
export function visitViews(response: OrderSessionsResponse | null, tz: string): VisitView[] {
  if (!response) return [];
  const tickets = response.ticket?._data ?? [];
  return response.order_session._data.map((s) => ({
    id: s.id,
    event: s.name ?? nameOf(response.event_template, s.event_template_id),
    when: s.start_datetime ? sessionLabel(s.start_datetime, s.timezone ?? tz) : '',
    ticketCount: s.ticket_count,
    orderIds: s.ticket_order_ids,
    tickets: ticketViews(
      response,
      tickets.filter((t) => t.event_session_id === s.id),
      tz,
    ),
  }));
}

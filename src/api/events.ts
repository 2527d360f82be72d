import type { AdmitRule } from '../domain/admit';
import type { AxiosInstance } from 'axios';
import type { EventTemplateRow, EventsResponse, VenueRow } from './types';
import { ApiError } from './errors';
import { availableEventsRead, calendarRead, eventRead, reservableEventRead } from './first-reads';

export interface EventList { events: EventTemplateRow[]; venues: VenueRow[]; count: number }

/** GET events/available: the public listing, narrowed by the filter params of domain/event-filters. */
export async function getAvailableEvents(client: AxiosInstance, filterParams: Record<string, string>): Promise<EventList> {
  const read = availableEventsRead(filterParams);
  const { data } = await client.get<EventsResponse>(read.path, { params: read.params });
  return {
    events: data.event_template?._data ?? [],
    venues: data.venue?._data ?? [],
    count: data.event_template?._count ?? 0,
  };
}

export interface EventDetail { event: EventTemplateRow; venue: VenueRow | null }

/** GET events/{id}; a 404 (or 400 for a malformed id) surfaces as ApiError for the not-found screen. */
export async function getEvent(client: AxiosInstance, eventId: string): Promise<EventDetail> {
  const read = eventRead(eventId);
  const { data } = await client.get<EventsResponse>(read.path, { params: read.params });
  const event = data.event_template?._data?.[0];
  if (!event) throw new ApiError(404, 'not_found', `Resource event_template not found.`);
  const venue = data.venue?._data?.find((v) => v.id === event.venue_id) ?? null;
  return { event, venue };
}

// ---- The reservation flow's reads (spec section 7): event with groups, calendar, sessions, session detail.

export type AdmitSettingValue = 'disabled' | 'optional' | 'required';

export interface TicketGroupRow {
  id: string;
  event_template_id: string;
  name: string;
  description: string | null;
  summary: string | null;
  color: string | null;
  handler: string;
  hidden_type: string;
  _rank: number;
  /** sold without a session (any-date admission) */
  flexible: boolean;
  min_tickets_per_order: number;
  max_tickets_per_order: number;
  capacity: number;
  oversell_capacity: number;
  used_capacity: number;
  /** capacity + oversell - used (per session in a session's answer), -1 unlimited */
  available_capacity: number;
  exclude_from_event_capacity: boolean;
  available: boolean;
  additional_info_spec: SurveySpec | null;
  meta: { admit_names?: AdmitSettingValue; admit_emails?: AdmitSettingValue; [key: string]: unknown } | null;
  config: Record<string, unknown> | null;
}

export interface SurveySpec {
  type?: string;
  title?: string;
  description?: string;
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
  [key: string]: unknown;
}

export interface TicketTypeRow {
  id: string;
  name: string;
  _rank: number;
  summary: string | null;
  description: string | null;
  /** money as decimal strings */
  currency_amount: string;
  currency_amount_min: string | null;
  currency_amount_max: string | null;
  discounted_amount: string | null;
  outside_fees: Array<{ name: string; fee: string }>;
  ticket_group_id: string;
  member_only: boolean;
  available: boolean;
}

export interface MessageRuleRow { id: string; _rank: number; triggers: unknown; actions: unknown }

export interface SessionPickerTabsConfigRow {
  first_tab_threshold?: string; second_tab_threshold?: string; third_tab_threshold?: string; labels?: string[];
}

export interface EventConfigRow {
  web?: { session_picker_tabs?: SessionPickerTabsConfigRow; hide_sold_out_sessions?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ReservableEvent {
  event: EventTemplateRow & { config?: EventConfigRow };
  venue: VenueRow | null;
  groups: TicketGroupRow[];
  types: TicketTypeRow[];
  messageRules: MessageRuleRow[];
  ticketRules: TicketRuleRow[];
}

/** A ticket rule of a group (spec section 3): who must be named, and how many. */
export interface TicketRuleRow extends AdmitRule { id: string; ticket_group_id: string }

interface ReservableEventResponse extends EventsResponse {
  ticket_group?: { _data: TicketGroupRow[] };
  ticket_type?: { _data: TicketTypeRow[] };
  message_rule?: { _data: MessageRuleRow[] };
  ticket_rule?: { _data: TicketRuleRow[] };
}

/** GET events/{id} with everything the reservation flow reads. */
export async function getReservableEvent(client: AxiosInstance, eventId: string): Promise<ReservableEvent> {
  const read = reservableEventRead(eventId);
  const { data } = await client.get<ReservableEventResponse>(read.path, { params: read.params });
  const event = data.event_template?._data?.[0];
  if (!event) throw new ApiError(404, 'not_found', 'Resource event_template not found.');
  return {
    event,
    venue: data.venue?._data?.find((v) => v.id === event.venue_id) ?? null,
    groups: data.ticket_group?._data ?? [],
    types: data.ticket_type?._data ?? [],
    messageRules: data.message_rule?._data ?? [],
    ticketRules: data.ticket_rule?._data ?? [],
  };
}

export interface CalendarDayRow {
  date: string;
  enabled: boolean;
  status: 'available' | 'sold_out' | string;
  price: string | null;
  min_price: string | null;
  min_price_fees?: { outside: string } | null;
  pricePrefix?: string | null;
  availability?: { capacity: number; used_capacity: number } | null;
  badges?: string[];
  annotations?: string[];
  tooltip?: string[];
  ariaLabel?: string;
}

/** GET events/{id}/calendar?_format=extended: one row per venue-local date with sessions or passes. */
export async function getCalendar(client: AxiosInstance, eventId: string, groupIds?: string[]): Promise<CalendarDayRow[]> {
  const read = calendarRead(eventId, groupIds);
  const { data } = await client.get<{ calendar?: { _data: CalendarDayRow[] } }>(read.path, { params: read.params });
  return data.calendar?._data ?? [];
}

export interface SessionRow {
  id: string;
  event_template_id: string;
  start_datetime: string;
  end_datetime: string;
  capacity: number;
  used_capacity: number;
  oversell_capacity: number;
  sold_out: boolean;
  availableCapacity: number;
  minPrice: string | null;
  price: string | null;
  priceIncrease: string | null;
  annotations: string[];
  messages?: string[];
}

/** GET events/{id}/sessions on one venue-local date; sold_out=T so sold-out sessions show as such. */
export async function getSessionsOnDate(client: AxiosInstance, eventId: string, date: string, groupIds?: string[]): Promise<SessionRow[]> {
  const params: Record<string, string> = { 'start_datetime._ondate': date, sold_out: 'T', _sort: 'start_datetime' };
  if (groupIds?.length) params['ticket_group_id._in'] = groupIds.join(',');
  const { data } = await client.get<{ event_session?: { _data: SessionRow[] } }>(`events/${encodeURIComponent(eventId)}/sessions`, { params });
  return data.event_session?._data ?? [];
}

/** A ticket selection the quantity-first flow asks the calendar and the sessions about. */
export interface TicketSelection { ticket_type_id: string; quantity: number }

/** POST events/{id}/calendar with a selection: the days where all of it fits one session. */
export async function getCalendarForSelection(client: AxiosInstance, eventId: string, tickets: TicketSelection[]): Promise<CalendarDayRow[]> {
  const { data } = await client.post<{ calendar?: { _data: CalendarDayRow[] } }>(`events/${encodeURIComponent(eventId)}/calendar`,
    { tickets }, { params: { _format: 'extended' } });
  return data.calendar?._data ?? [];
}

/** POST events/{id}/sessions with a selection, on one venue-local date: sold-out here means the selection does not fit. */
export async function getSessionsForSelection(client: AxiosInstance, eventId: string, date: string, tickets: TicketSelection[]): Promise<SessionRow[]> {
  const { data } = await client.post<{ event_session?: { _data: SessionRow[] } }>(`events/${encodeURIComponent(eventId)}/sessions`,
    { tickets }, { params: { 'start_datetime._ondate': date, sold_out: 'T', _sort: 'start_datetime' } });
  return data.event_session?._data ?? [];
}

export interface SessionDetail { session: SessionRow; groups: TicketGroupRow[]; types: TicketTypeRow[] }

/** GET events/{id}/sessions/{sid} narrowed to the given groups: their capacity and availability for that session. */
export async function getSessionDetail(client: AxiosInstance, eventId: string, sessionId: string, groupIds: string[]): Promise<SessionDetail> {
  const params: Record<string, string> = { _embed: 'ticket_group,ticket_type' };
  if (groupIds.length) params['ticket_group_id._in'] = groupIds.join(',');
  const { data } = await client.get<{ event_session?: { _data: SessionRow[] }; ticket_group?: { _data: TicketGroupRow[] }; ticket_type?: { _data: TicketTypeRow[] } }>(
    `events/${encodeURIComponent(eventId)}/sessions/${encodeURIComponent(sessionId)}`, { params });
  const session = data.event_session?._data?.[0];
  if (!session) throw new ApiError(404, 'event_session_not_found', 'Resource event_session not found.');
  return { session, groups: data.ticket_group?._data ?? [], types: data.ticket_type?._data ?? [] };
}

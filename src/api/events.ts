import type { AxiosInstance } from 'axios';
import type { Static } from 'typebox';
import type {
  AdmitSettingValue as AdmitSettingValueSchema,
  CalendarAnswer,
  CalendarDayRow,
  EventTemplateRow,
  EventsAnswer,
  MessageRuleRow,
  SessionRow,
  SessionsAnswer,
  TicketGroupRow,
  TicketRuleRow,
  TicketTypeRow,
  VenueRow,
} from '../contract/catalogue';
import { ApiError } from './errors';
import { availableEventsRead, calendarRead, eventRead, reservableEventRead } from '../contract/first-reads';

export interface EventList {
  events: EventTemplateRow[];
  venues: VenueRow[];
  count: number;
}

/** GET events/available: the public listing, narrowed by the filter params of domain/event-filters. */
export async function getAvailableEvents(client: AxiosInstance, filterParams: Record<string, string>): Promise<EventList> {
  const read = availableEventsRead(filterParams);
  const { data } = await client.get<EventsAnswer>(read.path, { params: read.params });
  return {
    events: data.event_template?._data ?? [],
    venues: data.venue?._data ?? [],
    count: data.event_template?._count ?? 0,
  };
}

export interface EventDetail {
  event: EventTemplateRow;
  venue: VenueRow | null;
}

/** GET events/{id}; a 404 (or 400 for a malformed id) surfaces as ApiError for the not-found screen. */
export async function getEvent(client: AxiosInstance, eventId: string): Promise<EventDetail> {
  const read = eventRead(eventId);
  const { data } = await client.get<EventsAnswer>(read.path, { params: read.params });
  const event = data.event_template?._data?.[0];
  if (!event) throw new ApiError(404, 'not_found', `Resource event_template not found.`);
  const venue = data.venue?._data?.find((v) => v.id === event.venue_id) ?? null;
  return { event, venue };
}

// ---- The reservation flow's reads (spec section 7): event with groups, calendar, sessions, session detail.

export type {
  CalendarDayRow,
  MessageRuleRow,
  SessionRow,
  SurveySpec,
  TicketGroupRow,
  TicketRuleRow,
  TicketTypeRow,
} from '../contract/catalogue';
export type AdmitSettingValue = Static<typeof AdmitSettingValueSchema>;

export interface ReservableEvent {
  event: EventTemplateRow;
  venue: VenueRow | null;
  groups: TicketGroupRow[];
  types: TicketTypeRow[];
  messageRules: MessageRuleRow[];
  ticketRules: TicketRuleRow[];
}

/** GET events/{id} with everything the reservation flow reads. */
export async function getReservableEvent(client: AxiosInstance, eventId: string): Promise<ReservableEvent> {
  const read = reservableEventRead(eventId);
  const { data } = await client.get<EventsAnswer>(read.path, { params: read.params });
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

/** GET events/{id}/calendar?_format=extended: one row per venue-local date with sessions or passes. */
export async function getCalendar(client: AxiosInstance, eventId: string, groupIds?: string[]): Promise<CalendarDayRow[]> {
  const read = calendarRead(eventId, groupIds);
  const { data } = await client.get<CalendarAnswer>(read.path, { params: read.params });
  return data.calendar?._data ?? [];
}

/** GET events/{id}/sessions on one venue-local date; sold_out=T so sold-out sessions show as such. */
export async function getSessionsOnDate(client: AxiosInstance, eventId: string, date: string, groupIds?: string[]): Promise<SessionRow[]> {
  const params: Record<string, string> = { 'start_datetime._ondate': date, sold_out: 'T', _sort: 'start_datetime' };
  if (groupIds?.length) params['ticket_group_id._in'] = groupIds.join(',');
  const { data } = await client.get<SessionsAnswer>(`events/${encodeURIComponent(eventId)}/sessions`, { params });
  return data.event_session?._data ?? [];
}

/** A ticket selection the quantity-first flow asks the calendar and the sessions about. */
export interface TicketSelection {
  ticket_type_id: string;
  quantity: number;
}

/** POST events/{id}/calendar with a selection: the days where all of it fits one session. */
export async function getCalendarForSelection(
  client: AxiosInstance,
  eventId: string,
  tickets: TicketSelection[],
): Promise<CalendarDayRow[]> {
  const { data } = await client.post<CalendarAnswer>(
    `events/${encodeURIComponent(eventId)}/calendar`,
    { tickets },
    { params: { _format: 'extended' } },
  );
  return data.calendar?._data ?? [];
}

/** POST events/{id}/sessions with a selection, on one venue-local date: sold-out here means the selection does not fit. */
export async function getSessionsForSelection(
  client: AxiosInstance,
  eventId: string,
  date: string,
  tickets: TicketSelection[],
): Promise<SessionRow[]> {
  const { data } = await client.post<SessionsAnswer>(
    `events/${encodeURIComponent(eventId)}/sessions`,
    { tickets },
    { params: { 'start_datetime._ondate': date, sold_out: 'T', _sort: 'start_datetime' } },
  );
  return data.event_session?._data ?? [];
}

export interface SessionDetail {
  session: SessionRow;
  groups: TicketGroupRow[];
  types: TicketTypeRow[];
}

/** GET events/{id}/sessions/{sid} narrowed to the given groups: their capacity and availability for that session. */
export async function getSessionDetail(
  client: AxiosInstance,
  eventId: string,
  sessionId: string,
  groupIds: string[],
): Promise<SessionDetail> {
  const params: Record<string, string> = { _embed: 'ticket_group,ticket_type' };
  if (groupIds.length) params['ticket_group_id._in'] = groupIds.join(',');
  const { data } = await client.get<SessionsAnswer>(`events/${encodeURIComponent(eventId)}/sessions/${encodeURIComponent(sessionId)}`, {
    params,
  });
  const session = data.event_session?._data?.[0];
  if (!session) throw new ApiError(404, 'event_session_not_found', 'Resource event_session not found.');
  return { session, groups: data.ticket_group?._data ?? [], types: data.ticket_type?._data ?? [] };
}

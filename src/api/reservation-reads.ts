import type { ApiClient } from './http';
import type { CalendarAnswer, CalendarDayRow, EventsAnswer, SessionRow, SessionsAnswer } from '../contract/catalogue';
import { ApiError } from './errors';
import { calendarRead, reservableEventRead } from '../contract/first-reads';
import type { ReservableEvent, SessionDetail, TicketSelection } from './events';

/* The reads of the reservation flow (spec section 7): a module of their own, so the events listing's first page
   does not carry them (issue 19, a lighter first page); the types stay in ./events. */

/** GET events/{id} with everything the reservation flow reads. */
export async function getReservableEvent(client: ApiClient, eventId: string): Promise<ReservableEvent> {
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
export async function getCalendar(client: ApiClient, eventId: string, groupIds?: string[]): Promise<CalendarDayRow[]> {
  const read = calendarRead(eventId, groupIds);
  const { data } = await client.get<CalendarAnswer>(read.path, { params: read.params });
  return data.calendar?._data ?? [];
}

/** GET events/{id}/sessions on one venue-local date; sold_out=T so sold-out sessions show as such. */
export async function getSessionsOnDate(client: ApiClient, eventId: string, date: string, groupIds?: string[]): Promise<SessionRow[]> {
  const params: Record<string, string> = { 'start_datetime._ondate': date, sold_out: 'T', _sort: 'start_datetime' };
  if (groupIds?.length) params['ticket_group_id._in'] = groupIds.join(',');
  const { data } = await client.get<SessionsAnswer>(`events/${encodeURIComponent(eventId)}/sessions`, { params });
  return data.event_session?._data ?? [];
}

/** POST events/{id}/calendar with a selection: the days where all of it fits one session. */
export async function getCalendarForSelection(client: ApiClient, eventId: string, tickets: TicketSelection[]): Promise<CalendarDayRow[]> {
  const { data } = await client.post<CalendarAnswer>(
    `events/${encodeURIComponent(eventId)}/calendar`,
    { tickets },
    { params: { _format: 'extended' } },
  );
  return data.calendar?._data ?? [];
}

/** POST events/{id}/sessions with a selection, on one venue-local date: sold-out here means the selection does not fit. */
export async function getSessionsForSelection(
  client: ApiClient,
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

/** GET events/{id}/sessions/{sid} narrowed to the given groups: their capacity and availability for that session. */
export async function getSessionDetail(client: ApiClient, eventId: string, sessionId: string, groupIds: string[]): Promise<SessionDetail> {
  const params: Record<string, string> = { _embed: 'ticket_group,ticket_type' };
  if (groupIds.length) params['ticket_group_id._in'] = groupIds.join(',');
  const { data } = await client.get<SessionsAnswer>(`events/${encodeURIComponent(eventId)}/sessions/${encodeURIComponent(sessionId)}`, {
    params,
  });
  const session = data.event_session?._data?.[0];
  if (!session) throw new ApiError(404, 'event_session_not_found', 'Resource event_session not found.');
  return { session, groups: data.ticket_group?._data ?? [], types: data.ticket_type?._data ?? [] };
}

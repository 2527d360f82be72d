import type { ApiClient } from './http';
import type { Static } from 'typebox';
import type {
  AdmitSettingValue as AdmitSettingValueSchema,
  EventTemplateRow,
  EventsAnswer,
  MessageRuleRow,
  SessionRow,
  TicketGroupRow,
  TicketRuleRow,
  TicketTypeRow,
  VenueRow,
} from '../contract/catalogue';
import { ApiError } from './errors';
import { availableEventsRead, eventRead } from '../contract/first-reads';

export interface EventList {
  events: EventTemplateRow[];
  venues: VenueRow[];
  count: number;
}

/** GET events/available: the public listing, narrowed by the filter params of domain/event-filters. */
export async function getAvailableEvents(client: ApiClient, filterParams: Record<string, string>): Promise<EventList> {
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
export async function getEvent(client: ApiClient, eventId: string): Promise<EventDetail> {
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

/** A ticket selection the quantity-first flow asks the calendar and the sessions about. */
export interface TicketSelection {
  ticket_type_id: string;
  quantity: number;
}

export interface SessionDetail {
  session: SessionRow;
  groups: TicketGroupRow[];
  types: TicketTypeRow[];
}

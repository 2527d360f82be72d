import type { AxiosInstance } from 'axios';
import type { EventTemplateRow, EventsResponse, VenueRow } from './types';
import { ApiError } from './errors';

export interface EventList { events: EventTemplateRow[]; venues: VenueRow[]; count: number }

/** GET events/available: the public listing, narrowed by the filter params of domain/event-filters. */
export async function getAvailableEvents(client: AxiosInstance, filterParams: Record<string, string>): Promise<EventList> {
  const { data } = await client.get<EventsResponse>('events/available', {
    params: { 'hidden_type._in': 'public_browsable', _embed: 'venue,meta', ...filterParams },
  });
  return {
    events: data.event_template?._data ?? [],
    venues: data.venue?._data ?? [],
    count: data.event_template?._count ?? 0,
  };
}

export interface EventDetail { event: EventTemplateRow; venue: VenueRow | null }

/** GET events/{id}; a 404 (or 400 for a malformed id) surfaces as ApiError for the not-found screen. */
export async function getEvent(client: AxiosInstance, eventId: string): Promise<EventDetail> {
  const { data } = await client.get<EventsResponse>(`events/${encodeURIComponent(eventId)}`, {
    params: { _embed: 'venue,meta' },
  });
  const event = data.event_template?._data?.[0];
  if (!event) throw new ApiError(404, 'not_found', `Resource event_template not found.`);
  const venue = data.venue?._data?.find((v) => v.id === event.venue_id) ?? null;
  return { event, venue };
}

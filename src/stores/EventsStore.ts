import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import { getAvailableEvents, getEvent } from '../api/events';
import { toApiError, type ApiError } from '../api/errors';
import type { EventTemplateRow, VenueRow } from '../api/types';
import { availableEventsParams, type EventFilters } from '../domain/event-filters';

export type LoadState = 'idle' | 'loading' | 'ready' | 'error';

export interface EventsStoreDeps {
  api: ApiClient;
  timezone: () => string;
  now: () => Date;
  /** A current member also sees the members-only events (spec sections 1 and 6); unset: nobody does. */
  isMember?: () => boolean;
}

/** The events listing and the event shown on the detail screen. */
export class EventsStore {
  state: LoadState = 'idle';
  events: EventTemplateRow[] = [];
  error: ApiError | null = null;
  private venues = new Map<string, VenueRow>();
  /** Only the newest listing request may write results: filters can change faster than answers arrive. */
  private listRequest = 0;

  detailState: LoadState = 'idle';
  detail: { event: EventTemplateRow; venue: VenueRow | null } | null = null;
  detailError: ApiError | null = null;
  private detailRequest = 0;

  private readonly deps: EventsStoreDeps;

  constructor(deps: EventsStoreDeps) {
    this.deps = deps;
    makeAutoObservable<EventsStore, 'deps' | 'listRequest' | 'detailRequest'>(
      this,
      { deps: false, listRequest: false, detailRequest: false },
      { autoBind: true, deep: false },
    );
  }

  get count(): number {
    return this.events.length;
  }

  venueOf(event: EventTemplateRow): VenueRow | null {
    return event.venue_id ? (this.venues.get(event.venue_id) ?? null) : null;
  }

  async loadEvents(filters: EventFilters): Promise<void> {
    const request = ++this.listRequest;
    this.state = 'loading';
    this.error = null;
    try {
      const params = availableEventsParams(filters, this.deps.now(), this.deps.timezone(), this.deps.isMember?.() ?? false);
      const list = await getAvailableEvents(this.deps.api, params);
      if (request !== this.listRequest) return;
      runInAction(() => {
        this.events = list.events;
        this.venues = new Map(list.venues.map((v) => [v.id, v]));
        this.state = 'ready';
      });
    } catch (error) {
      if (request !== this.listRequest) return;
      runInAction(() => {
        this.error = toApiError(error);
        this.state = 'error';
      });
    }
  }

  async loadEvent(eventId: string): Promise<void> {
    const request = ++this.detailRequest;
    this.detailState = 'loading';
    this.detailError = null;
    if (this.detail?.event.id !== eventId) this.detail = null;
    try {
      const detail = await getEvent(this.deps.api, eventId);
      if (request !== this.detailRequest) return;
      runInAction(() => {
        this.detail = detail;
        this.detailState = 'ready';
      });
    } catch (error) {
      if (request !== this.detailRequest) return;
      runInAction(() => {
        this.detailError = toApiError(error);
        this.detailState = 'error';
      });
    }
  }

  /** Spec section 8: an event that does not exist (404, or 400 for a malformed id) goes to the 404 screen. */
  get detailNotFound(): boolean {
    return this.detailState === 'error' && (this.detailError?.status === 404 || this.detailError?.status === 400);
  }
}

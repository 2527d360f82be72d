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
  /** The listing a page drawn by the server shows (primeEvents): the screen's first load asks for it again, and keeps
   *  it instead. */
  private primedKey: string | null = null;
  /** The event a page drawn by the server shows (primeEvent): the screen's first load of it keeps it likewise. */
  private primedEventId: string | null = null;

  detailState: LoadState = 'idle';
  detail: { event: EventTemplateRow; venue: VenueRow | null } | null = null;
  detailError: ApiError | null = null;
  private detailRequest = 0;

  private readonly deps: EventsStoreDeps;

  constructor(deps: EventsStoreDeps) {
    this.deps = deps;
    makeAutoObservable<EventsStore, 'deps' | 'listRequest' | 'detailRequest' | 'primedKey' | 'primedEventId'>(
      this,
      { deps: false, listRequest: false, detailRequest: false, primedKey: false, primedEventId: false },
      { autoBind: true, deep: false },
    );
  }

  get count(): number {
    return this.events.length;
  }

  venueOf(event: EventTemplateRow): VenueRow | null {
    return event.venue_id ? (this.venues.get(event.venue_id) ?? null) : null;
  }

  private paramsOf(filters: EventFilters) {
    return availableEventsParams(filters, this.deps.now(), this.deps.timezone(), this.deps.isMember?.() ?? false);
  }

  /** The listing before its screen's first render, on the server and again on the client before it hydrates the
   *  server's drawing (src/app/first-screen.ts): the screen's own first load of the same listing then keeps it. */
  async primeEvents(filters: EventFilters): Promise<void> {
    await this.loadEvents(filters);
    this.primedKey = this.state === 'ready' ? JSON.stringify(this.paramsOf(filters)) : null;
  }

  async loadEvents(filters: EventFilters): Promise<void> {
    const params = this.paramsOf(filters);
    const primed = this.primedKey;
    this.primedKey = null;
    if (primed !== null && primed === JSON.stringify(params) && this.state === 'ready') return;
    const request = ++this.listRequest;
    this.state = 'loading';
    this.error = null;
    try {
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

  /** The event before its screen's first render, as primeEvents for the listing. */
  async primeEvent(eventId: string): Promise<void> {
    await this.loadEvent(eventId);
    this.primedEventId = this.detailState === 'ready' ? eventId : null;
  }

  async loadEvent(eventId: string): Promise<void> {
    const primed = this.primedEventId;
    this.primedEventId = null;
    if (primed === eventId && this.detailState === 'ready' && this.detail?.event.id === eventId) return;
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

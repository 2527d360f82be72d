import type { CalendarDayRow, ReservableEvent, SessionDetail, SessionRow, TicketSelection, TicketTypeRow } from '../../api/events';
import type { ReserveLineInput } from '../../domain/quantity';
import type { SeatMapData } from '../../api/seating';
import type { CartVisit, EventLike, UpsellSettings } from '../../domain/upsell';

/** The reads the flow makes (src/api/events.ts bound to the client); tests pass fakes. */
export interface ReservationApi {
  /** `members`: the members-only groups too (hidden_type._in), for a current member. */
  getEvent(eventId: string, opts?: { members?: boolean }): Promise<ReservableEvent>;
  getCalendar(eventId: string, groupIds: string[]): Promise<CalendarDayRow[]>;
  getSessions(eventId: string, date: string, groupIds: string[]): Promise<SessionRow[]>;
  getSession(eventId: string, sessionId: string, groupIds: string[]): Promise<SessionDetail>;
  /** The quantity-first flow's reads (POST with the selection); a flow without them is date-first only. */
  getCalendarForSelection?(eventId: string, tickets: TicketSelection[]): Promise<CalendarDayRow[]>;
  getSessionsForSelection?(eventId: string, date: string, tickets: TicketSelection[]): Promise<SessionRow[]>;
  /** A session's seat map with every seat's state (events with seated groups). */
  getSeatMap?(eventId: string, sessionId: string): Promise<SeatMapData>;
}

/** The cart's reserve call (CartStore.reserve, per the CART/RESERVE contract). */
export interface ReserveTarget {
  reserve(lines: ReserveLineInput[], additionalInfo?: Record<string, unknown>): Promise<void>;
  /** When the cart's anchor starts (CartStore.anchorStart): an add-on opens on that date. */
  readonly anchorStart?: string | null;
  /** Settles once the stored cart has been read at startup (CartStore.settled). */
  readonly settled?: Promise<unknown>;
  /** Reads the cart again (CartStore.load): a refusal about the visit means the page's copy of it is out of date. */
  load?(): Promise<void>;
}

export interface ReservationDeps {
  api: ReservationApi;
  cart: ReserveTarget;
  eventId: string;
  /** the seller's timezone, used when the event has no venue */
  timezone: string;
  /** The clock (tests set it); the venue's today for a link's session=today. */
  now?: () => Date;
  /** The seller's default reserve flow (config web.reserve_flow); an event's meta.reserve_flow wins. */
  reserveFlow?: string;
  /** How often an open page reads the chosen date's sessions again (live availability, issue 16); 0: never.
   *  Default LIVE_AVAILABILITY_MS. */
  liveIntervalMs?: number;
  /** A current member (spec section 6; the root MembershipStore): the ticket types of the membership's benefits, their
   *  member prices and the room left in a session; null for a visitor who is not a current member. */
  member?: MemberView | null;
  /** Upsell chains (issue 16): the cart's anchors and the seller's rules, read each time (they change as the cart does). */
  visit?: () => VisitContext | null;
}

/** The member as the flow reads them (MembershipStore). */
export interface MemberView {
  /** the ticket types of the membership's benefits */
  readonly benefitTypeIds: string[] | null;
  /** a members-only type's price for this member, or null (its own price) */
  memberPrice(type: Pick<TicketTypeRow, 'id' | 'member_only'>, group: { hidden_type: string }): number | null;
  /** how many more of each benefit type the session has room for beyond `chosen`, the cart's member tickets counted */
  roomFor(sessionId: string | null, chosen: Record<string, number>): Record<string, number>;
}

/** An anchor in the cart as the flow fits an add-on to it: its visit, its name and its tickets by type name. */
export interface AnchorVisit extends CartVisit {
  name: string;
  types: Array<{ name: string; count: number }>;
}
export interface VisitContext {
  settings: UpsellSettings;
  anchors: AnchorVisit[];
  /** the upsell chain offers this event now (UpsellStore.isOffer): its dates and times fit the anchor's visit */
  chainOffers(event: EventLike): boolean;
  /** the cart is known (none stored, or read): a missing anchor is missing, not still on its way */
  known: boolean;
}

/** Live availability: an open event page reads its date's sessions again this often while it is visible. */
export const LIVE_AVAILABILITY_MS = 4000;

export type ReservationState = 'loading' | 'unavailable' | 'init-error' | 'ready';
export type AdmissionMode = 'date' | 'flexible';
export interface Notice {
  key: string;
  params?: Record<string, string | number>;
  tone: 'error' | 'warning';
}

/** What the date choice asks of the session choice (SessionChoice). */
export interface SessionLink {
  /** The chosen session goes; the date's sessions stay. */
  clear(): void;
  /** The date's sessions and the chosen session go. */
  reset(): void;
  loadSessions(date: string): Promise<void>;
}

/** What the date and session choices ask of the quantities (Quantities). */
export interface QuantityLink {
  /** The chosen quantities, as the quantity-first reads send them. */
  readonly selection: TicketSelection[];
  readonly ticketCount: number;
  /** Back to the starting counts of the groups shown now (a new session or admission). */
  reset(): void;
}

/**
 * How a part reaches the parts that are built after it. ReservationStore, the root (the MobX docs' "root store"),
 * holds the parts and passes itself: a part imports only the modules of the parts built before it, so the modules
 * import in one direction.
 */
export interface ReservationParts {
  readonly sessionChoice: SessionLink;
  readonly tickets: QuantityLink;
}

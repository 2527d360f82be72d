import { addDays, startOfVenueDay, venueDate } from './dates';

/**
 * Upsell chains (spec sections 1, 2, 4, 6, 9; issue 16), the rules the server enforces and the storefront shows.
 *
 * - An anchor is a visit that starts the day: the seller's admission event, or an event of the seller's
 *   `upsells.anchor_categories`.
 * - After an anchor, the chain offers add-ons: events of `upsells.upsell_categories`, and events whose own catalogue
 *   `upsell` entry names that anchor (its `anchor_event_ids` or `anchor_categories`).
 * - An add-on fits the visit by the seller's `upsells.visit_time`: `timeslot` (it starts within the anchor's time
 *   slot), `same_start` (within 1 minute of the anchor's start), `same_date` (the anchor's venue date) or `until_close`
 *   (from the anchor's start to the end of its day).
 * - An event whose `upsell.requires_anchor` is on is sold only with an anchor it follows, fitting the visit, in the
 *   cart (`anchor_required`); one whose meta `tickets_must_match_anchor_tickets` is on takes as many tickets as such an
 *   anchor holds (`tickets_must_match_anchor_tickets`).
 * - An anchor that an add-on in the cart follows is a dependency: removing it clears the cart (spec section 4).
 */

export type VisitTime = 'timeslot' | 'same_start' | 'same_date' | 'until_close';
export const VISIT_TIMES: readonly VisitTime[] = ['timeslot', 'same_start', 'same_date', 'until_close'];
/** Spec section 9: same_start allows a 1 minute window either side of the anchor's start. */
export const SAME_START_WINDOW_MS = 60_000;

export interface UpsellSettings {
  enabled: boolean;
  /** the seller skips the chain: after an anchor the shopper goes straight to checkout */
  skip: boolean;
  admissionEventId: string | null;
  anchorCategories: readonly string[];
  upsellCategories: readonly string[];
  visitTime: VisitTime;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The seller config's `upsells` entry and admission event (GET config's storefront value, or the seller row's config). */
export function upsellSettings(config: unknown): UpsellSettings {
  const c = record(config);
  const u = record(c.upsells);
  const visit = u.visit_time;
  return {
    enabled: u.enabled !== false,
    skip: u.skip === true,
    admissionEventId: typeof c.admission_event_id === 'string' ? c.admission_event_id : null,
    anchorCategories: strings(u.anchor_categories),
    upsellCategories: strings(u.upsell_categories),
    visitTime: (VISIT_TIMES as readonly unknown[]).includes(visit) ? (visit as VisitTime) : 'same_date',
  };
}

/** An event's own upsell entry (catalogue `upsell`, kept in the event's config), or null. */
export interface EventUpsell {
  requiresAnchor: boolean;
  anchorEventIds: readonly string[];
  anchorCategories: readonly string[];
}
export function eventUpsell(eventConfig: unknown): EventUpsell | null {
  const entry = record(eventConfig).upsell;
  if (!entry || typeof entry !== 'object') return null;
  const u = record(entry);
  return {
    requiresAnchor: u.requires_anchor !== false,
    anchorEventIds: strings(u.anchor_event_ids),
    anchorCategories: strings(u.anchor_categories),
  };
}

export interface EventLike {
  id: string;
  category: string;
  config?: unknown;
  meta?: unknown;
}

/** A visit that starts the day (the cart item's isAnchor). */
export function isAnchorEvent(event: Pick<EventLike, 'id' | 'category'>, settings: UpsellSettings): boolean {
  return event.id === settings.admissionEventId || settings.anchorCategories.includes(event.category);
}

/** Whether `addOn` may follow `anchor`: the anchors the add-on names itself, else the seller's anchors. */
export function followsAnchor(addOn: EventLike, anchor: Pick<EventLike, 'id' | 'category'>, settings: UpsellSettings): boolean {
  if (addOn.id === anchor.id) return false;
  const own = eventUpsell(addOn.config);
  if (own && (own.anchorEventIds.length > 0 || own.anchorCategories.length > 0))
    return own.anchorEventIds.includes(anchor.id) || own.anchorCategories.includes(anchor.category);
  return isAnchorEvent(anchor, settings);
}

/** An event the chain offers after `anchor`: of the upsell categories, or naming the anchor itself; never an anchor. */
export function isOfferedAfter(event: EventLike, anchor: Pick<EventLike, 'id' | 'category'>, settings: UpsellSettings): boolean {
  if (isAnchorEvent(event, settings) || !followsAnchor(event, anchor, settings)) return false;
  return settings.upsellCategories.includes(event.category) || eventUpsell(event.config) !== null;
}

/** The event sells only with an anchor in the cart. */
export const requiresAnchor = (event: Pick<EventLike, 'config'>): boolean => eventUpsell(event.config)?.requiresAnchor === true;
/** The event's tickets must match its anchor's in number. */
export const mustMatchAnchorTickets = (event: Pick<EventLike, 'meta'>): boolean =>
  record(event.meta).tickets_must_match_anchor_tickets === true;

/** When an add-on may start to fit an anchor's visit: [from, to) in epoch ms. */
export interface VisitWindow {
  from: number;
  to: number;
}

/** The window an anchor's session gives its add-ons by `visit_time`; null for an anchor without a session (any day). */
export function visitWindow(
  anchor: { start: string | Date | null; end?: string | Date | null },
  visitTime: VisitTime,
  timeZone: string,
): VisitWindow | null {
  if (!anchor.start) return null;
  const start = new Date(anchor.start).getTime();
  const end = anchor.end ? Math.max(start, new Date(anchor.end).getTime()) : start;
  const date = venueDate(new Date(start), timeZone);
  const endOfDay = startOfVenueDay(addDays(date, 1), timeZone).getTime();
  switch (visitTime) {
    case 'timeslot':
      return { from: start, to: Math.max(end, start + 1) };
    case 'same_start':
      return { from: start - SAME_START_WINDOW_MS, to: start + SAME_START_WINDOW_MS + 1 };
    case 'until_close':
      return { from: start, to: endOfDay };
    default:
      return { from: startOfVenueDay(date, timeZone).getTime(), to: endOfDay };
  }
}

/** A session starting at `start` fits the window (no window: anything fits). */
export function fitsWindow(start: string | Date | null, window: VisitWindow | null): boolean {
  if (!window) return true;
  if (!start) return false;
  const at = new Date(start).getTime();
  return at >= window.from && at < window.to;
}

/** A visit in the cart: the tickets of one event and session, with what the rules read of the event. */
export interface CartVisit {
  eventId: string;
  category: string;
  config?: unknown;
  meta?: unknown;
  sessionId: string | null;
  start: string | Date | null;
  end: string | Date | null;
  /** the venue's timezone (the anchor's date is the venue's) */
  timezone: string;
  /** tickets of this event and session in the cart */
  count: number;
}

const asEvent = (v: CartVisit): EventLike => ({ id: v.eventId, category: v.category, config: v.config, meta: v.meta });

/** The anchors in `visits` an add-on visit follows and fits. */
export function anchorsOf(addOn: CartVisit, visits: readonly CartVisit[], settings: UpsellSettings): CartVisit[] {
  return visits.filter(
    (v) =>
      v !== addOn &&
      isAnchorEvent(asEvent(v), settings) &&
      followsAnchor(asEvent(addOn), asEvent(v), settings) &&
      // an add-on for any day fits every visit
      (!addOn.start || fitsWindow(addOn.start, visitWindow(v, settings.visitTime, v.timezone))),
  );
}

/** The rule an add-on breaks, as the server words it (its `_code` and `_extra`). */
export type AnchorProblem =
  | { code: 'anchor_required'; event_template_id: string; event_session_id: string | null; visit_time: VisitTime }
  | {
      code: 'tickets_must_match_anchor_tickets';
      event_template_id: string;
      event_session_id: string | null;
      count: number;
      /** the ticket counts of the anchors it may follow */
      anchor_counts: number[];
    };

/** The first add-on of the cart that breaks an anchor rule, or null. */
export function anchorProblem(visits: readonly CartVisit[], settings: UpsellSettings): AnchorProblem | null {
  for (const visit of visits) {
    const needsAnchor = requiresAnchor(visit);
    const mustMatch = mustMatchAnchorTickets(visit);
    if (!needsAnchor && !mustMatch) continue;
    const anchors = anchorsOf(visit, visits, settings);
    const ids = { event_template_id: visit.eventId, event_session_id: visit.sessionId };
    if (needsAnchor && anchors.length === 0) return { code: 'anchor_required', ...ids, visit_time: settings.visitTime };
    if (mustMatch && anchors.length > 0 && !anchors.some((a) => a.count === visit.count)) {
      return { code: 'tickets_must_match_anchor_tickets', ...ids, count: visit.count, anchor_counts: anchors.map((a) => a.count) };
    }
  }
  return null;
}

/** The anchors an add-on in the cart depends on (removing one clears the cart), as indexes into `visits`. */
export function dependencies(visits: readonly CartVisit[], settings: UpsellSettings): Set<number> {
  const out = new Set<number>();
  for (const visit of visits) {
    if (!requiresAnchor(visit) && !mustMatchAnchorTickets(visit)) continue;
    for (const anchor of anchorsOf(visit, visits, settings)) out.add(visits.indexOf(anchor));
  }
  return out;
}

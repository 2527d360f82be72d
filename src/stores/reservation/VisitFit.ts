import { makeAutoObservable } from 'mobx';
import type { EventTemplateRow } from '../../contract/catalogue';
import { fitsWindow, followsAnchor, mustMatchAnchorTickets, requiresAnchor, visitWindow, type EventLike } from '../../domain/upsell';
import type { AnchorVisit, ReservationDeps } from './types';

/** What the fit reads of the flow (FlowContext). */
interface FlowSource {
  readonly deps: ReservationDeps;
  readonly event: EventTemplateRow | null;
  venueDate(instant: Date | string): string;
}

/**
 * An add-on fitted to the visit it follows (upsell chains, issue 16; src/domain/upsell.ts): the anchors in the cart the
 * event follows; when the event is sold only after one, or the chain offers it, only the dates and times that fit an
 * anchor's visit (the seller's visit_time); a missing anchor; and the ticket count a tickets-must-match event takes.
 * The server applies the same rules to the reserve.
 */
export class VisitFit {
  private readonly flow: FlowSource;

  constructor(flow: FlowSource) {
    this.flow = flow;
    makeAutoObservable<VisitFit, 'flow'>(this, { flow: false }, { autoBind: true, deep: false });
  }

  private get visit() {
    return this.flow.deps.visit?.() ?? null;
  }
  private get eventLike(): EventLike | null {
    const e = this.flow.event;
    return e ? { id: e.id, category: e.category, config: e.config, meta: e.meta } : null;
  }

  /** The anchors in the cart this event follows. */
  get anchors(): AnchorVisit[] {
    const { visit, eventLike } = this;
    if (!visit || !eventLike) return [];
    return visit.anchors.filter((a) => followsAnchor(eventLike, { id: a.eventId, category: a.category }, visit.settings));
  }

  /** An event sold only after an anchor, with none it follows in the cart: 'add an admission event first'. */
  get missingAnchor(): boolean {
    return !!this.visit?.known && !!this.eventLike && requiresAnchor(this.eventLike) && this.anchors.length === 0;
  }

  /** The event must fit an anchor's visit: it is sold only after one, or the chain offers it. */
  get restricts(): boolean {
    const { eventLike, visit } = this;
    if (!eventLike || !visit || this.anchors.length === 0) return false;
    return requiresAnchor(eventLike) || visit.chainOffers(eventLike);
  }

  private windowOf(anchor: AnchorVisit) {
    return visitWindow(anchor, this.visit?.settings.visitTime ?? 'same_date', anchor.timezone);
  }

  /** The venue dates the event may be on while it must fit (null: any date). */
  get dates(): ReadonlySet<string> | null {
    if (!this.restricts) return null;
    const out = new Set<string>();
    for (const anchor of this.anchors) {
      const window = this.windowOf(anchor);
      if (!window) return null;
      out.add(this.flow.venueDate(new Date(window.from)));
      out.add(this.flow.venueDate(new Date(window.to - 1)));
    }
    return out;
  }
  allowsDate(date: string): boolean {
    return this.dates?.has(date) ?? true;
  }

  /** The anchors whose visit a session starting at `start` fits (an add-on for any day fits them all). */
  fitting(start: string | null): AnchorVisit[] {
    return this.anchors.filter((a) => !start || fitsWindow(start, this.windowOf(a)));
  }
  /** The anchor a session does not fit, while the event must fit (the time is disabled, naming it); else null. */
  outsideVisit(start: string): AnchorVisit | null {
    return this.restricts && this.fitting(start).length === 0 ? this.anchors[0] : null;
  }

  /** tickets_must_match_anchor_tickets: the anchors whose ticket count a session starting at `start` must match. */
  matchFor(start: string | null): AnchorVisit[] {
    return this.eventLike && mustMatchAnchorTickets(this.eventLike) ? this.fitting(start) : [];
  }
}

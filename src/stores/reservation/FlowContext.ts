import { makeAutoObservable } from 'mobx';
import type { ReservableEvent, TicketGroupRow } from '../../api/events';
import { venueDate } from '../../domain/dates';
import { isDatedGroup, isMembersOnlyEvent, publicGroupsOf } from '../../domain/reservable-groups';
import type { Notice, ReservationDeps, ReservationState } from './types';
import { VisitFit } from './VisitFit';

/**
 * What every part of a reservation flow shares: the deps, the loaded event and its groups, the flow's state, the
 * one notice line, whether a submit was attempted, and whether the screen is gone (late answers are then ignored).
 */
export class FlowContext {
  state: ReservationState = 'loading';
  notFound = false;
  data: ReservableEvent | null = null;
  notice: Notice | null = null;
  /** set by a submit attempt: field errors (admit, price) show from then on */
  attempted = false;
  readonly deps: ReservationDeps;
  disposed = false;
  /** The add-on's fit to the visit it follows (upsell chains, issue 16). */
  readonly visit: VisitFit;

  constructor(deps: ReservationDeps) {
    this.deps = deps;
    this.visit = new VisitFit(this);
    makeAutoObservable(
      this,
      { deps: false, disposed: false, visit: false },
      // API answers are replaced whole, never edited in place: references, not deep observable copies (a
      // 120-day calendar and a session's types cost 50-90 ms to wrap on a phone).
      { autoBind: true, deep: false },
    );
  }

  get eventId(): string {
    return this.deps.eventId;
  }
  get timezone(): string {
    return this.data?.venue?.timezone ?? this.deps.timezone;
  }
  get event() {
    return this.data?.event ?? null;
  }

  /** The ticket types of the current member's benefits (spec section 6); null for a visitor who is not a member. */
  get memberTypeIds(): ReadonlySet<string> | null {
    const ids = this.deps.member?.benefitTypeIds;
    return ids ? new Set(ids) : null;
  }

  /** Spec section 6: a members-only event for a visitor without a current membership (login or renewal prompt). */
  get membersOnlyLocked(): boolean {
    return Boolean(this.data) && !this.deps.member && isMembersOnlyEvent(this.data!.event, this.data!.groups);
  }

  /** Groups a visitor may buy: members-only groups only for a member (their benefits' types), none without types. */
  get publicGroups(): TicketGroupRow[] {
    return this.data ? publicGroupsOf(this.data.groups, this.data.types, this.memberTypeIds) : [];
  }
  get datedGroups(): TicketGroupRow[] {
    return this.publicGroups.filter(isDatedGroup);
  }
  get datedGroupIds(): string[] {
    return this.datedGroups.map((g) => g.id);
  }
  get flexibleGroups(): TicketGroupRow[] {
    return this.publicGroups.filter((g) => !isDatedGroup(g) && g.available);
  }

  /** The venue-local date (YYYY-MM-DD) of an instant. */
  venueDate(instant: Date | string): string {
    return venueDate(instant, this.timezone);
  }

  dismissNotice(): void {
    this.notice = null;
  }
}

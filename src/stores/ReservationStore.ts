import { makeAutoObservable } from 'mobx';
import type { TicketGroupRow, TicketTypeRow } from '../api/events';
import type { Preselection } from '../domain/preselect';
import { DateChoice } from './reservation/DateChoice';
import { FlowContext } from './reservation/FlowContext';
import { LinkPreselection } from './reservation/Preselection';
import { Quantities } from './reservation/Quantities';
import { SessionChoice } from './reservation/SessionChoice';
import { SeatChoice } from './reservation/SeatChoice';
import { Submission } from './reservation/Submission';
import { LIVE_AVAILABILITY_MS, type AdmissionMode, type ReservationDeps } from './reservation/types';

export { DATE_BUTTONS } from './reservation/DateChoice';
export type { AdmissionMode, Notice, ReservationApi, ReservationDeps, ReservationState, ReserveTarget } from './reservation/types';

/**
 * The date-first reservation flow of one event-detail visit (spec section 4): loading, then unavailable,
 * init-error or ready; date -> sessions -> session -> groups and quantities -> admit details, survey -> reserve.
 *
 * The facade the screens read; the work is done by its parts (src/stores/reservation/), which it builds and holds as
 * the MobX docs' root store does: the shared context, the date, the session, the tickets, the submit and a link's
 * preselection.
 */
export class ReservationStore {
  readonly context: FlowContext;
  readonly dates: DateChoice;
  readonly sessionChoice: SessionChoice;
  readonly tickets: Quantities;
  readonly seats: SeatChoice;
  readonly submission: Submission;
  readonly linkPreselection: LinkPreselection;
  private live: ReturnType<typeof setInterval> | null = null;

  constructor(deps: ReservationDeps) {
    this.context = new FlowContext(deps);
    // Built in the order they import one another; the earlier ones reach the later through this root.
    this.dates = new DateChoice(this.context, this);
    this.sessionChoice = new SessionChoice(this.context, this.dates, this);
    this.tickets = new Quantities(this.context, this.dates, this.sessionChoice);
    this.seats = new SeatChoice(this.context, this.sessionChoice, this.tickets);
    this.submission = new Submission(this.context, this.dates, this.sessionChoice, this.tickets, this.seats);
    this.linkPreselection = new LinkPreselection(this.context, this.dates, this.sessionChoice, this.tickets, this.submission);
    makeAutoObservable<ReservationStore, 'live'>(
      this,
      {
        context: false,
        dates: false,
        sessionChoice: false,
        tickets: false,
        seats: false,
        submission: false,
        linkPreselection: false,
        live: false,
      },
      { autoBind: true },
    );
  }

  // ---- the flow, the event and its groups (FlowContext)

  get state() {
    return this.context.state;
  }
  get notFound() {
    return this.context.notFound;
  }
  get data() {
    return this.context.data;
  }
  get notice() {
    return this.context.notice;
  }
  /** set by a submit attempt: field errors (admit, price) show from then on */
  get attempted() {
    return this.context.attempted;
  }
  get eventId() {
    return this.context.eventId;
  }
  get timezone() {
    return this.context.timezone;
  }
  get event() {
    return this.context.event;
  }
  get publicGroups() {
    return this.context.publicGroups;
  }
  /** a members-only event for a visitor without a current membership */
  get membersOnlyLocked() {
    return this.context.membersOnlyLocked;
  }
  get datedGroups() {
    return this.context.datedGroups;
  }
  /** the add-on's fit to the visit it follows (upsell chains, issue 16) */
  get visit() {
    return this.context.visit;
  }
  get datedGroupIds() {
    return this.context.datedGroupIds;
  }
  get flexibleGroups() {
    return this.context.flexibleGroups;
  }

  // ---- admission and date (DateChoice)

  get calendar() {
    return this.dates.calendar;
  }
  get mode() {
    return this.dates.mode;
  }
  get selectedDate() {
    return this.dates.selectedDate;
  }
  get quantitiesOpen() {
    return this.dates.quantitiesOpen;
  }
  get calendarLoading() {
    return this.dates.calendarLoading;
  }
  get selectionCalendar() {
    return this.dates.selectionCalendar;
  }
  get quantityFirst() {
    return this.dates.quantityFirst;
  }
  get availableDates() {
    return this.dates.availableDates;
  }
  get shownCalendar() {
    return this.dates.shownCalendar;
  }
  get choosableDates() {
    return this.dates.choosableDates;
  }
  get dateButtons() {
    return this.dates.dateButtons;
  }
  get offersBoth() {
    return this.dates.offersBoth;
  }
  get effectiveMode() {
    return this.dates.effectiveMode;
  }

  // ---- session (SessionChoice)

  get sessions() {
    return this.sessionChoice.sessions;
  }
  get sessionsLoading() {
    return this.sessionChoice.sessionsLoading;
  }
  get selectedSessionId() {
    return this.sessionChoice.selectedSessionId;
  }
  get detail() {
    return this.sessionChoice.detail;
  }
  get detailLoading() {
    return this.sessionChoice.detailLoading;
  }
  get selectedSession() {
    return this.sessionChoice.selectedSession;
  }
  get showFewTicketsWarning() {
    return this.sessionChoice.showFewTicketsWarning;
  }

  // ---- tickets (Quantities)

  get quantities() {
    return this.tickets.quantities;
  }
  get flexiblePrices() {
    return this.tickets.flexiblePrices;
  }
  get admitValues() {
    return this.tickets.admitValues;
  }
  get surveyAnswers() {
    return this.tickets.surveyAnswers;
  }
  get groupFilter() {
    return this.tickets.groupFilter;
  }
  get showsSteppers() {
    return this.tickets.showsSteppers;
  }
  get selection() {
    return this.tickets.selection;
  }
  get shownGroups() {
    return this.tickets.shownGroups;
  }
  get ticketCount() {
    return this.tickets.ticketCount;
  }
  get admitSlots() {
    return this.tickets.admitSlots;
  }
  get messages() {
    return this.tickets.messages;
  }
  get surveyGroups() {
    return this.tickets.surveyGroups;
  }
  get subtotal() {
    return this.tickets.subtotal;
  }
  count(typeId: string) {
    return this.tickets.count(typeId);
  }
  groupCount(groupId: string) {
    return this.tickets.groupCount(groupId);
  }
  limitsOf(group: TicketGroupRow) {
    return this.tickets.limitsOf(group);
  }
  canIncrement(group: TicketGroupRow, typeId: string) {
    return this.tickets.canIncrement(group, typeId);
  }
  canDecrement(group: TicketGroupRow, typeId: string) {
    return this.tickets.canDecrement(group, typeId);
  }
  isFlexiblePrice(type: TicketTypeRow) {
    return this.tickets.isFlexiblePrice(type);
  }
  priceText(type: TicketTypeRow) {
    return this.tickets.priceText(type);
  }
  flexibleAmount(type: TicketTypeRow) {
    return this.tickets.flexibleAmount(type);
  }
  buildLines() {
    return this.tickets.buildLines();
  }

  // ---- submit (Submission)

  get submitting() {
    return this.submission.submitting;
  }
  get blockingProblem() {
    return this.submission.blockingProblem;
  }

  // ---- actions

  load() {
    return this.dates.load();
  }
  chooseMode(mode: AdmissionMode) {
    this.dates.chooseMode(mode);
  }
  selectDate(date: string) {
    return this.dates.selectDate(date);
  }
  loadSessions(date: string) {
    return this.sessionChoice.loadSessions(date);
  }
  selectSession(sessionId: string) {
    return this.sessionChoice.selectSession(sessionId);
  }
  findTickets() {
    return this.dates.findTickets();
  }
  editQuantities() {
    this.dates.editQuantities();
  }
  increment(group: TicketGroupRow, typeId: string) {
    this.tickets.increment(group, typeId);
  }
  decrement(group: TicketGroupRow, typeId: string) {
    this.tickets.decrement(group, typeId);
  }
  setFlexiblePrice(typeId: string, text: string) {
    this.tickets.setFlexiblePrice(typeId, text);
  }
  setAdmit(key: string, field: 'name' | 'email', value: string) {
    this.tickets.setAdmit(key, field, value);
  }
  setSurveyAnswers(groupId: string, answers: Record<string, unknown>) {
    this.tickets.setSurveyAnswers(groupId, answers);
  }
  dismissNotice() {
    this.context.dismissNotice();
  }
  /** Adds the selection to the cart. `surveysValid` is the survey forms' own validation. True when reserved. */
  submit(surveysValid = true) {
    return this.submission.submit(surveysValid);
  }
  /** A link's preselection (domain/preselect.ts), once the flow is ready; true when it was reserved. */
  preselect(p: Preselection) {
    return this.linkPreselection.preselect(p);
  }

  /** The screen is on (again: StrictMode mounts twice in development). */
  start(): void {
    this.context.disposed = false;
    const every = this.context.deps.liveIntervalMs ?? LIVE_AVAILABILITY_MS;
    if (every > 0 && !this.live) {
      // Only while the page is seen: a background tab asks nothing.
      this.live = setInterval(() => {
        if (typeof document === 'undefined' || document.visibilityState === 'visible') void this.sessionChoice.refresh();
      }, every);
    }
  }
  dispose(): void {
    this.context.disposed = true;
    if (this.live) clearInterval(this.live);
    this.live = null;
  }
}

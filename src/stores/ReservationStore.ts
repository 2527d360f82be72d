import { makeAutoObservable, observable, runInAction } from 'mobx';
import type {
  CalendarDayRow,
  ReservableEvent,
  SessionDetail,
  SessionRow,
  TicketGroupRow,
  TicketSelection,
  TicketTypeRow,
} from '../api/events';
import { toApiError } from '../api/errors';
import { FEW_TICKETS_THRESHOLD, fewTicketsLeft } from '../domain/availability';
import {
  clampToCap,
  decrementTo,
  incrementTo,
  initialQuantity,
  limitsForGroup,
  moneyToMinor,
  parseFlexibleAmount,
  reserveLines,
  selectionGuard,
  type GroupLimits,
  type ReserveLineInput,
} from '../domain/quantity';
import {
  admitEmailForLine,
  admitErrors,
  admitNameForLine,
  cleanSurveyAnswers,
  missingSurveyAnswers,
  selectionAdmitSlots,
  type AdmitSlot,
} from '../domain/admit';
import { formatSessionTime, isSessionSoldOut } from '../domain/session-tabs';
import { longDateLabel, venueDate } from '../domain/dates';
import { reserveErrorMessage, SESSION_SOLD_OUT } from '../domain/reservation-errors';
import { normaliseRules, quantityMessages } from '../domain/message-rules';
import { isDatedGroup, publicGroupsOf } from '../domain/reservable-groups';
import { findType, hasPreselection, type Preselection } from '../domain/preselect';

const byRank = <T extends { _rank: number }>(a: T, b: T) => a._rank - b._rank;
/** A day that can be chosen. */
const isOpenDay = (d: CalendarDayRow) => d.enabled && d.status === 'available';

/** The reads the flow makes (src/api/events.ts bound to the client); tests pass fakes. */
export interface ReservationApi {
  getEvent(eventId: string): Promise<ReservableEvent>;
  getCalendar(eventId: string, groupIds: string[]): Promise<CalendarDayRow[]>;
  getSessions(eventId: string, date: string, groupIds: string[]): Promise<SessionRow[]>;
  getSession(eventId: string, sessionId: string, groupIds: string[]): Promise<SessionDetail>;
  /** The quantity-first flow's reads (POST with the selection); a flow without them is date-first only. */
  getCalendarForSelection?(eventId: string, tickets: TicketSelection[]): Promise<CalendarDayRow[]>;
  getSessionsForSelection?(eventId: string, date: string, tickets: TicketSelection[]): Promise<SessionRow[]>;
}

/** The cart's reserve call (CartStore.reserve, per the CART/RESERVE contract). */
export interface ReserveTarget {
  reserve(lines: ReserveLineInput[], additionalInfo?: Record<string, unknown>): Promise<void>;
  /** When the cart's anchor starts (CartStore.anchorStart): an add-on opens on that date. */
  readonly anchorStart?: string | null;
  /** Settles once the stored cart has been read at startup (CartStore.settled). */
  readonly settled?: Promise<unknown>;
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
}

export type ReservationState = 'loading' | 'unavailable' | 'init-error' | 'ready';
export type AdmissionMode = 'date' | 'flexible';
export interface Notice {
  key: string;
  params?: Record<string, string | number>;
  tone: 'error' | 'warning';
}

/** Spec section 9: up to 8 date buttons. */
export const DATE_BUTTONS = 8;

/**
 * The date-first reservation flow of one event-detail visit (spec section 4): loading, then unavailable,
 * init-error or ready; date -> sessions -> session -> groups and quantities -> admit details, survey -> reserve.
 */
export class ReservationStore {
  state: ReservationState = 'loading';
  notFound = false;
  data: ReservableEvent | null = null;
  calendar: CalendarDayRow[] = [];
  mode: AdmissionMode | null = null;
  selectedDate: string | null = null;
  sessions: SessionRow[] = [];
  sessionsLoading = false;
  selectedSessionId: string | null = null;
  detail: SessionDetail | null = null;
  detailLoading = false;
  readonly quantities = observable.map<string, number>();
  readonly flexiblePrices = observable.map<string, string>();
  readonly admitValues = observable.map<string, { name?: string; email?: string }>();
  readonly surveyAnswers = observable.map<string, Record<string, unknown>>();
  submitting = false;
  /** set by a submit attempt: field errors (admit, price) show from then on */
  attempted = false;
  notice: Notice | null = null;
  /** A link's ticket group filter (tg): only these groups' steppers show. */
  groupFilter: string[] | null = null;
  /** Quantity-first: the quantities are being chosen (before 'Find available tickets', or after 'Change tickets'). */
  quantitiesOpen = true;
  calendarLoading = false;
  /** Quantity-first: the calendar for the chosen quantities (null until 'Find available tickets'). */
  selectionCalendar: CalendarDayRow[] | null = null;
  private readonly deps: ReservationDeps;
  private serial = { sessions: 0, detail: 0 };
  private disposed = false;

  constructor(deps: ReservationDeps) {
    this.deps = deps;
    makeAutoObservable<ReservationStore, 'deps' | 'serial' | 'disposed'>(
      this,
      { deps: false, serial: false, disposed: false, quantities: false, flexiblePrices: false, admitValues: false, surveyAnswers: false },
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
  /** Spec section 4: quantities first, then 'find available tickets' loads the calendar for them, then date and
   *  session. The event's meta.reserve_flow, else the seller's default; only for dated admission. */
  get quantityFirst(): boolean {
    const flow = this.data?.event.meta?.reserve_flow ?? this.deps.reserveFlow;
    return flow === 'quantity_first' && this.effectiveMode === 'date' && !!this.deps.api.getCalendarForSelection;
  }
  /** Whether the steppers show now: flexible admission, quantity-first while choosing, date-first once a session is chosen. */
  get showsSteppers(): boolean {
    const mode = this.effectiveMode;
    if (mode === 'flexible') return true;
    if (mode !== 'date') return false;
    return this.quantityFirst ? this.quantitiesOpen : !!this.selectedSessionId;
  }
  /** The selection the quantity-first flow asks the calendar and sessions about. */
  get selection(): TicketSelection[] {
    return [...this.quantities].filter(([, n]) => n > 0).map(([ticket_type_id, quantity]) => ({ ticket_type_id, quantity }));
  }

  /** Groups a visitor may buy: members-only groups are hidden (no login yet), as are groups without types. */
  get publicGroups(): TicketGroupRow[] {
    return this.data ? publicGroupsOf(this.data.groups, this.data.types) : [];
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

  get availableDates(): CalendarDayRow[] {
    return this.calendar.filter(isOpenDay);
  }
  /** The calendar the date picker shows: quantity-first, the one for the chosen quantities. */
  get shownCalendar(): CalendarDayRow[] {
    return this.quantityFirst ? (this.selectionCalendar ?? []) : this.calendar;
  }
  /** Dates that can be chosen now. */
  get choosableDates(): CalendarDayRow[] {
    return this.shownCalendar.filter(isOpenDay);
  }
  /** The next dates with anything to show, sold-out ones included so the shopper sees why they cannot pick them. */
  get dateButtons(): CalendarDayRow[] {
    return this.shownCalendar.filter((d) => d.enabled).slice(0, DATE_BUTTONS);
  }
  get offersBoth(): boolean {
    return this.availableDates.length > 0 && this.flexibleGroups.length > 0;
  }
  /** Which admission the rest of the flow is about; null while the shopper still has to choose. */
  get effectiveMode(): AdmissionMode | null {
    if (this.offersBoth) return this.mode;
    if (this.availableDates.length > 0) return 'date';
    return this.flexibleGroups.length > 0 ? 'flexible' : null;
  }

  get selectedSession(): SessionRow | null {
    return this.detail?.session ?? this.sessions.find((s) => s.id === this.selectedSessionId) ?? null;
  }
  get showFewTicketsWarning(): boolean {
    return this.effectiveMode === 'date' && !!this.detail && fewTicketsLeft(this.detail.session.availableCapacity, FEW_TICKETS_THRESHOLD);
  }

  /** The groups whose steppers show now, with their types. */
  get shownGroups(): Array<{ group: TicketGroupRow; types: TicketTypeRow[] }> {
    const mode = this.effectiveMode;
    const detail = this.detail && this.detail.session.id === this.selectedSessionId ? this.detail : null;
    const source =
      mode === 'date'
        ? (detail ?? (this.quantityFirst ? { groups: this.datedGroups, types: this.data?.types ?? [] } : null))
        : mode === 'flexible'
          ? { groups: this.flexibleGroups, types: this.data?.types ?? [] }
          : null;
    if (!source) return [];
    return [...source.groups]
      .sort(byRank)
      .filter((g) => g.hidden_type !== 'public_member_only')
      .filter((g) => !this.groupFilter || this.groupFilter.includes(g.id))
      .map((group) => ({ group, types: source.types.filter((t) => t.ticket_group_id === group.id && !t.member_only).sort(byRank) }))
      .filter((g) => g.types.length > 0);
  }

  count(typeId: string): number {
    return this.quantities.get(typeId) ?? 0;
  }
  groupCount(groupId: string): number {
    return this.shownGroups.find((g) => g.group.id === groupId)?.types.reduce((s, t) => s + this.count(t.id), 0) ?? 0;
  }
  get ticketCount(): number {
    return this.shownGroups.reduce((sum, g) => sum + g.types.reduce((s, t) => s + this.count(t.id), 0), 0);
  }

  /** Stepper limits of a group (the session's capacity shared with the other counted groups). */
  limitsOf(group: TicketGroupRow): GroupLimits {
    const typeCount = this.shownGroups.find((g) => g.group.id === group.id)?.types.length ?? 0;
    const session =
      this.effectiveMode === 'date' && this.detail
        ? {
            available: this.detail.session.availableCapacity,
            pickedInOtherGroups: this.shownGroups
              .filter((g) => g.group.id !== group.id && !g.group.exclude_from_event_capacity)
              .reduce((s, g) => s + this.groupCount(g.group.id), 0),
          }
        : null;
    return limitsForGroup(group, typeCount, session);
  }

  canIncrement(group: TicketGroupRow, typeId: string): boolean {
    return incrementTo(this.limitsOf(group), this.count(typeId), this.groupCount(group.id)) !== null;
  }
  canDecrement(group: TicketGroupRow, typeId: string): boolean {
    return decrementTo(this.limitsOf(group), this.count(typeId)) !== null;
  }

  isFlexiblePrice(type: TicketTypeRow): boolean {
    return type.currency_amount_min !== null && type.currency_amount_max !== null;
  }
  priceText(type: TicketTypeRow): string {
    return this.flexiblePrices.get(type.id) ?? type.currency_amount;
  }
  /** The chosen amount in minor units, or null when it is outside min/max. */
  flexibleAmount(type: TicketTypeRow): number | null {
    return parseFlexibleAmount(
      this.priceText(type),
      moneyToMinor(type.currency_amount_min) ?? 0,
      moneyToMinor(type.currency_amount_max) ?? 0,
    );
  }

  /** Admit fields of the selected tickets, grouped by type (group meta first, the event's meta as fallback). */
  get admitSlots(): Array<{ type: TicketTypeRow; slots: AdmitSlot[] }> {
    return selectionAdmitSlots(this.shownGroups, this.event?.meta ?? {}, (id) => this.count(id), this.data?.ticketRules ?? []);
  }
  /** The message rules' texts for what is selected: the chosen date's and session's messages, quantity messages. */
  get messages(): string[] {
    const rules = normaliseRules(this.data?.messageRules ?? []);
    const lines = this.shownGroups.flatMap(({ group, types }) =>
      types.map((t) => ({
        ticket_group_id: group.id,
        ticket_group_name: group.name,
        ticket_type_id: t.id,
        ticket_type_name: t.name,
        quantity: this.count(t.id),
      })),
    );
    const day = this.shownCalendar.find((d) => d.date === this.selectedDate);
    const dateTexts = this.effectiveMode === 'date' ? (day?.tooltip ?? []) : [];
    return [...new Set([...dateTexts, ...(this.selectedSession?.messages ?? []), ...quantityMessages(rules, lines)])];
  }
  /** Groups with tickets chosen whose survey has questions. */
  get surveyGroups(): TicketGroupRow[] {
    return this.shownGroups
      .map((g) => g.group)
      .filter((g) => this.groupCount(g.id) > 0 && Object.keys(g.additional_info_spec?.properties ?? {}).length > 0);
  }

  // ---- actions

  async load(): Promise<void> {
    const { api, eventId } = this.deps;
    this.state = 'loading';
    try {
      const data = await api.getEvent(eventId);
      runInAction(() => {
        this.data = data;
      });
      const dated = this.datedGroupIds;
      const calendar = dated.length ? await api.getCalendar(eventId, dated) : [];
      if (this.disposed) return;
      const ready = runInAction(() => {
        this.calendar = calendar;
        this.state = this.availableDates.length === 0 && this.flexibleGroups.length === 0 ? 'unavailable' : 'ready';
        return this.state === 'ready';
      });
      // Spec section 4: a single available date is selected by itself; else the cart anchor's date, if available
      // (once the stored cart has been read: a first page load reads it beside the event).
      if (!ready || this.quantityFirst) return;
      if (this.effectiveMode === 'date' && this.availableDates.length === 1) {
        await this.selectDate(this.availableDates[0].date);
      } else {
        await this.deps.cart.settled?.catch(() => {});
        const anchor = this.deps.cart.anchorStart;
        const anchorDate = anchor ? this.venueDate(anchor) : null;
        if (!this.disposed && !this.selectedDate && anchorDate && this.availableDates.some((d) => d.date === anchorDate)) {
          await this.selectDate(anchorDate);
        }
      }
    } catch (error) {
      const e = toApiError(error);
      runInAction(() => {
        this.notFound = e.status === 404 || e.status === 400;
        this.state = 'init-error';
      });
    }
  }

  /** Flexible admission clears the date and vice versa (spec section 4); the other mode's tickets go too. */
  chooseMode(mode: AdmissionMode): void {
    if (this.mode === mode) return;
    this.mode = mode;
    this.notice = null;
    this.selectedDate = null;
    this.clearSession();
    this.sessions = [];
    this.resetQuantities();
  }

  async selectDate(date: string): Promise<void> {
    if (!this.choosableDates.some((d) => d.date === date)) return;
    if (this.offersBoth && this.mode !== 'date') this.chooseMode('date');
    this.selectedDate = date;
    this.notice = null;
    this.clearSession();
    await this.loadSessions(date);
  }

  async loadSessions(date: string): Promise<void> {
    const request = ++this.serial.sessions;
    this.sessionsLoading = true;
    try {
      const { api, eventId } = this.deps;
      const sessions =
        this.quantityFirst && api.getSessionsForSelection
          ? await api.getSessionsForSelection(eventId, date, this.selection)
          : await api.getSessions(eventId, date, this.datedGroupIds);
      if (request !== this.serial.sessions || this.disposed) return;
      runInAction(() => {
        this.sessions = sessions;
        this.sessionsLoading = false;
      });
    } catch {
      if (request !== this.serial.sessions) return;
      runInAction(() => {
        this.sessions = [];
        this.sessionsLoading = false;
        this.notice = { key: 'app.unexpectedError', tone: 'error' };
      });
    }
  }

  async selectSession(sessionId: string): Promise<void> {
    const session = this.sessions.find((s) => s.id === sessionId);
    if (!session || isSessionSoldOut(session)) return; // a sold-out session is refused
    this.selectedSessionId = sessionId;
    this.detail = null;
    this.notice = null;
    if (!this.quantityFirst) this.resetQuantities();
    const request = ++this.serial.detail;
    this.detailLoading = true;
    try {
      const detail = await this.deps.api.getSession(this.deps.eventId, sessionId, this.datedGroupIds);
      if (request !== this.serial.detail || this.disposed) return;
      runInAction(() => {
        this.detail = detail;
        this.detailLoading = false;
        if (!this.quantityFirst) this.resetQuantities();
      });
    } catch {
      if (request !== this.serial.detail) return;
      runInAction(() => {
        this.detailLoading = false;
        this.notice = { key: 'reserve.errors.sessionUnavailable', tone: 'error' };
      });
    }
  }

  /** Quantity-first: 'Find available tickets' closes the quantities and loads the calendar for them. */
  async findTickets(): Promise<void> {
    const { api, eventId } = this.deps;
    if (!api.getCalendarForSelection) return;
    if (this.ticketCount === 0) {
      this.attempted = true;
      this.notice = { key: 'reserve.guard.atLeastOneTicket', tone: 'error' };
      return;
    }
    this.quantitiesOpen = false;
    this.notice = null;
    this.clearDate();
    this.calendarLoading = true;
    try {
      const calendar = await api.getCalendarForSelection(eventId, this.selection);
      if (this.disposed || this.quantitiesOpen) return;
      const dates = runInAction(() => {
        this.selectionCalendar = calendar;
        this.calendarLoading = false;
        const open = this.choosableDates;
        if (open.length === 0) this.notice = { key: 'reserve.quantityFirst.noDates', tone: 'error' };
        return open;
      });
      if (dates.length === 1) await this.selectDate(dates[0].date);
    } catch {
      runInAction(() => {
        this.calendarLoading = false;
        this.quantitiesOpen = true;
        this.notice = { key: 'app.unexpectedError', tone: 'error' };
      });
    }
  }

  /** Quantity-first: 'Change tickets' opens the quantities again; the date and session go (spec section 4). */
  editQuantities(): void {
    this.quantitiesOpen = true;
    this.calendarLoading = false;
    this.selectionCalendar = null;
    this.notice = null;
    this.clearDate();
  }

  private clearDate(): void {
    this.selectedDate = null;
    this.clearSession();
    this.sessions = [];
  }

  increment(group: TicketGroupRow, typeId: string): void {
    const next = incrementTo(this.limitsOf(group), this.count(typeId), this.groupCount(group.id));
    if (next !== null) this.quantities.set(typeId, next);
  }
  decrement(group: TicketGroupRow, typeId: string): void {
    const next = decrementTo(this.limitsOf(group), this.count(typeId));
    if (next !== null) this.quantities.set(typeId, next);
  }
  setFlexiblePrice(typeId: string, text: string): void {
    this.flexiblePrices.set(typeId, text);
  }
  setAdmit(key: string, field: 'name' | 'email', value: string): void {
    this.admitValues.set(key, { ...this.admitValues.get(key), [field]: value });
  }
  setSurveyAnswers(groupId: string, answers: Record<string, unknown>): void {
    this.surveyAnswers.set(groupId, answers);
  }
  dismissNotice(): void {
    this.notice = null;
  }

  /** Problems that stop a submit before it is sent: guard, prices, admit details. */
  get blockingProblem(): Notice | null {
    const guard = selectionGuard({
      needsAdmissionChoice: this.offersBoth,
      mode: this.effectiveMode,
      selectedDate: this.selectedDate,
      selectedSessionId: this.selectedSessionId,
      ticketCount: this.ticketCount,
    });
    if (guard) return { key: `reserve.guard.${guard}`, tone: 'error' };
    const badPrice = this.shownGroups.some(({ types }) =>
      types.some((t) => this.count(t.id) > 0 && this.isFlexiblePrice(t) && this.flexibleAmount(t) === null),
    );
    const badAdmit = this.admitSlots.some(({ slots }) =>
      slots.some((s) => Object.keys(admitErrors(s, this.admitValues.get(s.key) ?? {})).length > 0),
    );
    // Required questions are checked here too, so a survey form still loading cannot be skipped.
    const badSurvey = this.surveyGroups.some(
      (g) => missingSurveyAnswers(g.additional_info_spec, this.surveyAnswers.get(g.id) ?? {}).length > 0,
    );
    if (badPrice || badAdmit || badSurvey) return { key: 'reserve.errors.fixFields', tone: 'error' };
    return null;
  }

  /** Adds the selection to the cart. `surveysValid` is the survey forms' own validation. True when reserved. */
  async submit(surveysValid = true): Promise<boolean> {
    if (this.submitting) return false;
    this.attempted = true;
    const problem = this.blockingProblem ?? (surveysValid ? null : { key: 'reserve.errors.fixFields', tone: 'error' as const });
    if (problem) {
      this.notice = problem;
      return false;
    }
    const lines = this.buildLines();
    const info: Record<string, unknown> = {};
    for (const group of this.surveyGroups)
      info[group.id] = cleanSurveyAnswers(group.additional_info_spec, this.surveyAnswers.get(group.id) ?? {});
    this.submitting = true;
    this.notice = null;
    try {
      await this.deps.cart.reserve(lines, Object.keys(info).length ? info : undefined);
      return true;
    } catch (error) {
      const e = toApiError(error);
      if (e._code === SESSION_SOLD_OUT && this.effectiveMode === 'date') await this.handleSessionSoldOut();
      else
        runInAction(() => {
          this.notice = { ...reserveErrorMessage(e), tone: 'error' };
        });
      return false;
    } finally {
      runInAction(() => {
        this.submitting = false;
      });
    }
  }

  buildLines(): ReserveLineInput[] {
    const sessionId = this.effectiveMode === 'date' ? this.selectedSessionId : null;
    const slotsByType = new Map(this.admitSlots.map((e) => [e.type.id, e.slots]));
    return this.shownGroups.flatMap(({ types }) =>
      types.flatMap((type) => {
        const amount = this.isFlexiblePrice(type) ? this.flexibleAmount(type) : null;
        return reserveLines({
          sessionId,
          ticketTypeId: type.id,
          quantity: this.count(type.id),
          faceValue: amount === null ? undefined : (amount / 100).toFixed(2),
          admit: (slotsByType.get(type.id) ?? []).map((slot) => {
            const value = this.admitValues.get(slot.key) ?? {};
            return { admit_name: admitNameForLine(value.name), admit_email: slot.showEmail ? admitEmailForLine(value.email) : undefined };
          }),
        });
      }),
    );
  }

  /** Spec section 4: reload sessions; another with capacity -> pick another session; none -> reload the calendar, clear the date. */
  private async handleSessionSoldOut(): Promise<void> {
    const failed = this.selectedSession;
    const date = this.selectedDate;
    if (!date) return;
    await this.loadSessions(date);
    if (this.sessions.some((s) => !isSessionSoldOut(s))) {
      runInAction(() => {
        this.clearSession();
        this.notice = {
          key: 'reserve.soldOut.session',
          params: { time: failed ? formatSessionTime(failed.start_datetime, this.timezone) : '' },
          tone: 'error',
        };
      });
      return;
    }
    const { api, eventId } = this.deps;
    if (this.quantityFirst && api.getCalendarForSelection) {
      const fits = await api.getCalendarForSelection(eventId, this.selection).catch(() => this.selectionCalendar);
      runInAction(() => {
        this.selectionCalendar = fits;
      });
    }
    const calendar = await api.getCalendar(eventId, this.datedGroupIds).catch(() => this.calendar);
    runInAction(() => {
      this.calendar = calendar;
      this.selectedDate = null;
      this.sessions = [];
      this.clearSession();
      this.notice = { key: 'reserve.soldOut.date', params: { date: longDateLabel(date) }, tone: 'error' };
    });
  }

  private clearSession(): void {
    this.selectedSessionId = null;
    this.detail = null;
    this.serial.detail++;
    this.detailLoading = false;
  }

  private resetQuantities(): void {
    this.quantities.clear();
    this.attempted = false;
    for (const { group, types } of this.shownGroups) {
      const limits = this.limitsOf(group);
      if (types.length === 1) this.quantities.set(types[0].id, clampToCap(limits, initialQuantity(limits)));
    }
  }

  /**
   * A link's preselection (domain/preselect.ts), once the flow is ready: date or session, quantities, then the
   * submit when reserve is on. True when the selection was reserved (the screen then goes to the checkout).
   */
  async preselect(p: Preselection): Promise<boolean> {
    if (this.state !== 'ready' || !hasPreselection(p)) return false;
    const fail = (notice: Notice) => {
      runInAction(() => {
        this.notice =
          p.reserve === 'strict'
            ? { key: 'reserve.unavailable', tone: 'error' }
            : p.reserve === 'warn'
              ? { ...notice, tone: 'warning' }
              : notice;
      });
      return false;
    };
    if (p.conflict) return fail({ key: 'reserve.query.sessionAndDate', tone: 'error' });
    if (p.groupIds && this.publicGroups.some((g) => p.groupIds!.includes(g.id))) this.groupFilter = p.groupIds;
    if (p.date || p.session) {
      if (this.offersBoth) this.chooseMode('date');
    } else if (this.effectiveMode === null && this.flexibleGroups.length > 0 && (p.quantities.length || p.select)) {
      this.chooseMode('flexible');
    }

    // Quantity-first, the quantities come first and the calendar is asked for them; date-first, after the session.
    if (this.quantityFirst) {
      const problem = this.applyQuantities(p);
      if (problem) return fail(problem);
      if (this.ticketCount > 0 && (p.date || p.session || p.reserve !== 'off')) await this.findTickets();
      if (this.quantitiesOpen)
        return p.reserve === 'off' ? false : fail(this.notice ?? { key: 'reserve.guard.atLeastOneTicket', tone: 'error' });
    }
    if (p.date || p.session) {
      const date = p.date ?? (await this.dateOfSession(p.session!));
      if (!date) return fail({ key: 'reserve.errors.sessionUnavailable', tone: 'error' });
      if (!this.choosableDates.some((d) => d.date === date)) return fail({ key: 'reserve.unavailableOnDate', tone: 'error' });
      if (this.selectedDate !== date || this.sessions.length === 0) await this.selectDate(date);
      if (p.session) {
        const open = this.sessions.filter((s) => !isSessionSoldOut(s));
        const session = p.session === 'today' || p.session === 'next' ? open[0] : open.find((s) => s.id === p.session);
        if (!session) return fail({ key: 'reserve.errors.sessionUnavailable', tone: 'error' });
        await this.selectSession(session.id);
      }
    }
    if (!this.quantityFirst) {
      const problem = this.applyQuantities(p);
      if (problem) return fail(problem);
    }
    if (p.reserve === 'off') return false;
    const reserved = await this.submit();
    if (!reserved && this.notice) fail(this.notice);
    return reserved;
  }

  /** A link's quantities and selected type on the steppers shown now; the problem when a type is not there. */
  private applyQuantities(p: Preselection): Notice | null {
    const types = this.shownGroups.flatMap(({ group, types: list }) => list.map((type) => ({ group, type, id: type.id, name: type.name })));
    for (const { type: key, count } of p.quantities) {
      const found = findType(types, key);
      if (!found) return { key: 'reserve.query.typeNotFound', params: { name: key }, tone: 'error' };
      while (this.count(found.id) < count) {
        const before = this.count(found.id);
        this.increment(found.group, found.id);
        if (this.count(found.id) === before) break; // a cap: the steppers' own rules decide
      }
    }
    if (p.select) {
      const found = findType(types, p.select);
      if (!found) return { key: 'reserve.query.typeNotFound', params: { name: p.select }, tone: 'error' };
      if (this.count(found.id) === 0) this.increment(found.group, found.id);
      if (p.price && this.isFlexiblePrice(found.type)) this.setFlexiblePrice(found.id, p.price);
    }
    return null;
  }

  /** The venue-local date of a link's session: an id is looked up, 'today' is the venue's today, 'next' the first
   *  available date. */
  private async dateOfSession(session: string): Promise<string | null> {
    if (session === 'next') return this.choosableDates[0]?.date ?? null;
    if (session === 'today') return this.venueDate((this.deps.now ?? (() => new Date()))());
    try {
      const detail = await this.deps.api.getSession(this.deps.eventId, session, this.datedGroupIds);
      return this.venueDate(detail.session.start_datetime);
    } catch {
      return null;
    }
  }

  /** The venue-local date (YYYY-MM-DD) of an instant. */
  private venueDate(instant: Date | string): string {
    return venueDate(instant, this.timezone);
  }

  /** The screen is on (again: StrictMode mounts twice in development). */
  start(): void {
    this.disposed = false;
  }

  dispose(): void {
    this.disposed = true;
  }
}

import { makeAutoObservable, runInAction } from 'mobx';
import type { CalendarDayRow } from '../../api/events';
import { toApiError } from '../../api/errors';
import { longDateLabel } from '../../domain/dates';
import type { FlowContext } from './FlowContext';
import type { AdmissionMode, ReservationParts } from './types';

/** A day that can be chosen. */
const isOpenDay = (d: CalendarDayRow) => d.enabled && d.status === 'available';

/** Spec section 9: up to 8 date buttons. */
export const DATE_BUTTONS = 8;

/**
 * The admission and the date (spec section 4): loading the event and its calendar, dated or flexible admission, the
 * calendar and date buttons, the chosen date; quantity-first, the calendar for the chosen quantities.
 */
export class DateChoice {
  calendar: CalendarDayRow[] = [];
  mode: AdmissionMode | null = null;
  selectedDate: string | null = null;
  /** Quantity-first: the quantities are being chosen (before 'Find available tickets', or after 'Change tickets'). */
  quantitiesOpen = true;
  calendarLoading = false;
  /** Quantity-first: the calendar for the chosen quantities (null until 'Find available tickets'). */
  selectionCalendar: CalendarDayRow[] | null = null;
  private readonly context: FlowContext;
  private readonly parts: ReservationParts;

  constructor(context: FlowContext, parts: ReservationParts) {
    this.context = context;
    this.parts = parts;
    makeAutoObservable<DateChoice, 'context' | 'parts'>(this, { context: false, parts: false }, { autoBind: true, deep: false });
  }

  /** Spec section 4: quantities first, then 'find available tickets' loads the calendar for them, then date and
   *  session. The event's meta.reserve_flow, else the seller's default; only for dated admission. */
  get quantityFirst(): boolean {
    const { data, deps } = this.context;
    const flow = data?.event.meta?.reserve_flow ?? deps.reserveFlow;
    return flow === 'quantity_first' && this.effectiveMode === 'date' && !!deps.api.getCalendarForSelection;
  }

  get availableDates(): CalendarDayRow[] {
    return this.calendar.filter(isOpenDay);
  }
  /** The calendar the date picker shows: quantity-first, the one for the chosen quantities; an add-on that must fit
   *  its visit, only the visit's dates (upsell chains, issue 16). */
  get shownCalendar(): CalendarDayRow[] {
    const days = this.quantityFirst ? (this.selectionCalendar ?? []) : this.calendar;
    const visit = this.context.visit;
    return visit.dates ? days.filter((d) => visit.allowsDate(d.date)) : days;
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
    return this.availableDates.length > 0 && this.context.flexibleGroups.length > 0;
  }
  /** Which admission the rest of the flow is about; null while the shopper still has to choose. */
  get effectiveMode(): AdmissionMode | null {
    if (this.offersBoth) return this.mode;
    if (this.availableDates.length > 0) return 'date';
    return this.context.flexibleGroups.length > 0 ? 'flexible' : null;
  }

  async load(): Promise<void> {
    const context = this.context;
    const { api, eventId, cart } = context.deps;
    context.state = 'loading';
    try {
      const data = await api.getEvent(eventId, context.deps.member ? { members: true } : undefined);
      // A shopper who left the page meanwhile needs neither the event nor its calendar.
      if (context.disposed) return;
      runInAction(() => {
        context.data = data;
      });
      const dated = context.datedGroupIds;
      const calendar = dated.length ? await api.getCalendar(eventId, dated) : [];
      if (context.disposed) return;
      const ready = runInAction(() => {
        this.calendar = calendar;
        context.state = this.availableDates.length === 0 && context.flexibleGroups.length === 0 ? 'unavailable' : 'ready';
        return context.state === 'ready';
      });
      // Spec section 4: a single available date is selected by itself; else the cart anchor's date, if available
      // (once the stored cart has been read: a first page load reads it beside the event).
      // Quantity-first asks the tickets first: an add-on that must match its visit starts at the visit's tickets.
      if (ready && this.quantityFirst && context.visit.matchFor(null).length > 0) this.parts.tickets.reset();
      if (!ready || this.quantityFirst) return;
      // (an add-on that must fit its visit counts only the visit's dates)
      if (this.effectiveMode === 'date' && this.choosableDates.length === 1) {
        await this.selectDate(this.choosableDates[0].date);
      } else {
        await cart.settled?.catch(() => {});
        const anchor = cart.anchorStart;
        const anchorDate = anchor ? context.venueDate(anchor) : null;
        if (!context.disposed && !this.selectedDate && anchorDate && this.availableDates.some((d) => d.date === anchorDate)) {
          await this.selectDate(anchorDate);
        }
      }
    } catch (error) {
      const e = toApiError(error);
      runInAction(() => {
        context.notFound = e.status === 404 || e.status === 400;
        context.state = 'init-error';
      });
    }
  }

  /** Flexible admission clears the date and vice versa (spec section 4); the other mode's tickets go too. */
  chooseMode(mode: AdmissionMode): void {
    if (this.mode === mode) return;
    this.mode = mode;
    this.context.notice = null;
    this.clearDate();
    this.parts.tickets.reset();
  }

  async selectDate(date: string): Promise<void> {
    if (!this.choosableDates.some((d) => d.date === date)) return;
    if (this.offersBoth && this.mode !== 'date') this.chooseMode('date');
    this.selectedDate = date;
    this.context.notice = null;
    this.parts.sessionChoice.clear();
    await this.parts.sessionChoice.loadSessions(date);
  }

  /** Quantity-first: 'Find available tickets' closes the quantities and loads the calendar for them. */
  async findTickets(): Promise<void> {
    const context = this.context;
    const { api, eventId } = context.deps;
    if (!api.getCalendarForSelection) return;
    if (this.parts.tickets.ticketCount === 0) {
      context.attempted = true;
      context.notice = { key: 'reserve.guard.atLeastOneTicket', tone: 'error' };
      return;
    }
    this.quantitiesOpen = false;
    context.notice = null;
    this.clearDate();
    this.calendarLoading = true;
    try {
      const calendar = await api.getCalendarForSelection(eventId, this.parts.tickets.selection);
      if (context.disposed || this.quantitiesOpen) return;
      const dates = runInAction(() => {
        this.selectionCalendar = calendar;
        this.calendarLoading = false;
        const open = this.choosableDates;
        if (open.length === 0) context.notice = { key: 'reserve.quantityFirst.noDates', tone: 'error' };
        return open;
      });
      if (dates.length === 1) await this.selectDate(dates[0].date);
    } catch {
      runInAction(() => {
        this.calendarLoading = false;
        this.quantitiesOpen = true;
        context.notice = { key: 'app.unexpectedError', tone: 'error' };
      });
    }
  }

  /** Quantity-first: 'Change tickets' opens the quantities again; the date and session go (spec section 4). */
  editQuantities(): void {
    this.quantitiesOpen = true;
    this.calendarLoading = false;
    this.selectionCalendar = null;
    this.context.notice = null;
    this.clearDate();
  }

  /** Spec section 4, the last session of `date` sold out: the calendars are asked again, the date goes, and the
   *  shopper is told to pick another one. */
  async dropSoldOutDate(date: string): Promise<void> {
    const { api, eventId } = this.context.deps;
    if (this.quantityFirst && api.getCalendarForSelection) {
      const fits = await api.getCalendarForSelection(eventId, this.parts.tickets.selection).catch(() => this.selectionCalendar);
      runInAction(() => {
        this.selectionCalendar = fits;
      });
    }
    const calendar = await api.getCalendar(eventId, this.context.datedGroupIds).catch(() => this.calendar);
    runInAction(() => {
      this.calendar = calendar;
      this.clearDate();
      this.context.notice = { key: 'reserve.soldOut.date', params: { date: longDateLabel(date) }, tone: 'error' };
    });
  }

  /** The date goes, and with it the date's sessions and the chosen session. */
  private clearDate(): void {
    this.selectedDate = null;
    this.parts.sessionChoice.reset();
  }
}

import { makeAutoObservable, runInAction } from 'mobx';
import { toApiError } from '../../api/errors';
import { admitErrors, cleanSurveyAnswers, missingSurveyAnswers } from '../../domain/admit';
import { selectionGuard } from '../../domain/quantity';
import { reserveErrorMessage, SESSION_SOLD_OUT } from '../../domain/reservation-errors';
import type { DateChoice } from './DateChoice';
import type { FlowContext } from './FlowContext';
import type { Quantities } from './Quantities';
import type { SeatChoice } from './SeatChoice';
import type { SessionChoice } from './SessionChoice';
import type { Notice } from './types';

/** Refusals that mean the figures the shopper saw are out of date. */
const CAPACITY_CODES = new Set(['session_capacity_exceeded', 'ticket_group_capacity_exceeded', 'ticket_group_sold_out']);
/** Refusals about the visit in the cart (upsell chains, issue 16): the cart changed elsewhere, so it is read again. */
const VISIT_CODES = new Set(['anchor_required', 'tickets_must_match_anchor_tickets']);

/** The reserve (spec section 4): what blocks it, then the cart's reserve call with the lines and survey answers. */
export class Submission {
  submitting = false;
  private readonly context: FlowContext;
  private readonly dates: DateChoice;
  private readonly sessionChoice: SessionChoice;
  private readonly tickets: Quantities;
  private readonly seats: SeatChoice;

  constructor(context: FlowContext, dates: DateChoice, sessionChoice: SessionChoice, tickets: Quantities, seats: SeatChoice) {
    this.context = context;
    this.dates = dates;
    this.sessionChoice = sessionChoice;
    this.tickets = tickets;
    this.seats = seats;
    makeAutoObservable<Submission, 'context' | 'dates' | 'sessionChoice' | 'tickets' | 'seats'>(
      this,
      { context: false, dates: false, sessionChoice: false, tickets: false, seats: false },
      { autoBind: true, deep: false },
    );
  }

  /** Problems that stop a submit before it is sent: guard, prices, admit details, survey answers, CityPASS codes. */
  get blockingProblem(): Notice | null {
    const { dates, tickets } = this;
    const visit = this.context.visit;
    // Upsell chains (issue 16): an add-on sold only after an admission, and none in the cart.
    if (visit.missingAnchor) return { key: 'reserve.upsell.anchorFirst', tone: 'error' };
    const guard = selectionGuard({
      needsAdmissionChoice: dates.offersBoth,
      mode: dates.effectiveMode,
      selectedDate: dates.selectedDate,
      selectedSessionId: this.sessionChoice.selectedSessionId,
      ticketCount: tickets.ticketCount,
    });
    if (guard) return { key: `reserve.guard.${guard}`, tone: 'error' };
    const start = dates.effectiveMode === 'date' ? (this.sessionChoice.selectedSession?.start_datetime ?? null) : null;
    const match = visit.matchFor(start);
    if (match.length > 0 && !match.some((anchor) => anchor.count === tickets.ticketCount))
      return { key: 'reserve.errors.ticketsMustMatchCount', params: { count: match[0].count }, tone: 'error' };
    // Spec section 5: no reserve while seats are still needed.
    if (!this.seats.ready) return { key: 'reserve.guard.seats', tone: 'error' };
    const badPrice = tickets.shownGroups.some(({ types }) =>
      types.some((t) => tickets.count(t.id) > 0 && tickets.isFlexiblePrice(t) && tickets.flexibleAmount(t) === null),
    );
    const badAdmit = tickets.admitSlots.some(({ slots }) =>
      slots.some((s) => Object.keys(admitErrors(s, tickets.admitValues.get(s.key) ?? {})).length > 0),
    );
    // Required questions are checked here too, so a survey form still loading cannot be skipped.
    const badSurvey = tickets.surveyGroups.some(
      (g) => missingSurveyAnswers(g.additional_info_spec, tickets.surveyAnswers.get(g.id) ?? {}).length > 0,
    );
    const badCitypass = tickets.citypassSlots.some(({ kind, keys }) => keys.some((key) => tickets.citypassProblem(key, kind)));
    if (badPrice || badAdmit || badSurvey || badCitypass) return { key: 'reserve.errors.fixFields', tone: 'error' };
    return null;
  }

  /** Adds the selection to the cart. `surveysValid` is the survey forms' own validation. True when reserved. */
  async submit(surveysValid = true): Promise<boolean> {
    const { context, tickets } = this;
    if (this.submitting) return false;
    context.attempted = true;
    const problem = this.blockingProblem ?? (surveysValid ? null : { key: 'reserve.errors.fixFields', tone: 'error' as const });
    if (problem) {
      context.notice = problem;
      return false;
    }
    const lines = this.seats.assign(tickets.buildLines());
    const info: Record<string, unknown> = {};
    for (const group of tickets.surveyGroups)
      info[group.id] = cleanSurveyAnswers(group.additional_info_spec, tickets.surveyAnswers.get(group.id) ?? {});
    this.submitting = true;
    context.notice = null;
    try {
      await context.deps.cart.reserve(lines, Object.keys(info).length ? info : undefined);
      return true;
    } catch (error) {
      const e = toApiError(error);
      const lostSeats = e._code === 'seat_unavailable' ? e._extra?.seat_ids : null;
      if (e._code === SESSION_SOLD_OUT && this.dates.effectiveMode === 'date') await this.sessionChoice.recoverFromSoldOut();
      else if (Array.isArray(lostSeats) && lostSeats.length > 0) await this.seats.seatsLost(lostSeats as string[]);
      else {
        runInAction(() => {
          context.notice = { ...reserveErrorMessage(e), tone: 'error' };
        });
        // '{n} left' and sold-out states from the latest answer, not the one before the refusal (issue 16)
        if (CAPACITY_CODES.has(e._code)) void this.sessionChoice.refresh();
        if (VISIT_CODES.has(e._code)) void context.deps.cart.load?.();
      }
      return false;
    } finally {
      runInAction(() => {
        this.submitting = false;
      });
    }
  }
}

import { makeAutoObservable, runInAction, when } from 'mobx';
import { findType, hasPreselection, type Preselection } from '../../domain/preselect';
import { isSessionSoldOut } from '../../domain/session-tabs';
import type { DateChoice } from './DateChoice';
import type { FlowContext } from './FlowContext';
import type { Quantities } from './Quantities';
import type { SessionChoice } from './SessionChoice';
import type { Submission } from './Submission';
import type { Notice } from './types';

/** A link's preselection (domain/preselect.ts) applied to the flow with the shopper's own steps and rules. */
export class LinkPreselection {
  private readonly context: FlowContext;
  private readonly dates: DateChoice;
  private readonly sessionChoice: SessionChoice;
  private readonly tickets: Quantities;
  private readonly submission: Submission;

  constructor(context: FlowContext, dates: DateChoice, sessionChoice: SessionChoice, tickets: Quantities, submission: Submission) {
    this.context = context;
    this.dates = dates;
    this.sessionChoice = sessionChoice;
    this.tickets = tickets;
    this.submission = submission;
    makeAutoObservable<LinkPreselection, 'context' | 'dates' | 'sessionChoice' | 'tickets' | 'submission'>(
      this,
      { context: false, dates: false, sessionChoice: false, tickets: false, submission: false },
      { autoBind: true },
    );
  }

  /**
   * Once the flow is ready: date or session, quantities, then the submit when reserve is on. True when the
   * selection was reserved (the screen then goes to the checkout).
   */
  async preselect(p: Preselection): Promise<boolean> {
    const { context, dates, sessionChoice, tickets } = this;
    if (context.state !== 'ready' || !hasPreselection(p)) return false;
    const fail = (notice: Notice) => {
      runInAction(() => {
        context.notice =
          p.reserve === 'strict'
            ? { key: 'reserve.unavailable', tone: 'error' }
            : p.reserve === 'warn'
              ? { ...notice, tone: 'warning' }
              : notice;
      });
      return false;
    };
    if (p.conflict) return fail({ key: 'reserve.query.sessionAndDate', tone: 'error' });
    if (p.groupIds && context.publicGroups.some((g) => p.groupIds!.includes(g.id))) tickets.groupFilter = p.groupIds;
    if (p.date || p.session) {
      if (dates.offersBoth) dates.chooseMode('date');
    } else if (dates.effectiveMode === null && context.flexibleGroups.length > 0 && (p.quantities.length || p.select)) {
      dates.chooseMode('flexible');
    }

    // Quantity-first, the quantities come first and the calendar is asked for them; date-first, after the session.
    if (dates.quantityFirst) {
      const problem = this.applyQuantities(p);
      if (problem) return fail(problem);
      if (tickets.ticketCount > 0 && (p.date || p.session || p.reserve !== 'off')) await dates.findTickets();
      if (dates.quantitiesOpen)
        return p.reserve === 'off' ? false : fail(context.notice ?? { key: 'reserve.guard.atLeastOneTicket', tone: 'error' });
    }
    if (p.date || p.session) {
      const date = p.date ?? (await this.dateOfSession(p.session!));
      if (!date) return fail({ key: 'reserve.errors.sessionUnavailable', tone: 'error' });
      if (!dates.choosableDates.some((d) => d.date === date)) return fail({ key: 'reserve.unavailableOnDate', tone: 'error' });
      if (dates.selectedDate !== date || sessionChoice.sessions.length === 0) await dates.selectDate(date);
      if (p.session) {
        const open = sessionChoice.sessions.filter((s) => !isSessionSoldOut(s));
        const session = p.session === 'today' || p.session === 'next' ? open[0] : open.find((s) => s.id === p.session);
        if (!session) return fail({ key: 'reserve.errors.sessionUnavailable', tone: 'error' });
        await sessionChoice.selectSession(session.id);
      }
    }
    if (!dates.quantityFirst) {
      // Date-first with a date and no session: the steppers appear once the shopper picks a time, and the link's
      // quantities are set then (`?date=...&quantity=Adult:2` chooses the day and waits for the time).
      if (p.date && !p.session && tickets.shownGroups.length === 0 && (p.quantities.length || p.select)) {
        when(
          () => tickets.shownGroups.length > 0,
          () => {
            const problem = this.applyQuantities(p);
            if (problem) fail(problem);
          },
        );
        return p.reserve === 'off' ? false : fail({ key: 'reserve.guard.session', tone: 'error' });
      }
      const problem = this.applyQuantities(p);
      if (problem) return fail(problem);
    }
    if (p.reserve === 'off') return false;
    const reserved = await this.submission.submit();
    if (!reserved && context.notice) fail(context.notice);
    return reserved;
  }

  /** A link's quantities and selected type on the steppers shown now; the problem when a type is not there. */
  private applyQuantities(p: Preselection): Notice | null {
    const { tickets } = this;
    const types = tickets.shownGroups.flatMap(({ group, types: list }) =>
      list.map((type) => ({ group, type, id: type.id, name: type.name })),
    );
    for (const { type: key, count } of p.quantities) {
      const found = findType(types, key);
      if (!found) return { key: 'reserve.query.typeNotFound', params: { name: key }, tone: 'error' };
      while (tickets.count(found.id) < count) {
        const before = tickets.count(found.id);
        tickets.increment(found.group, found.id);
        if (tickets.count(found.id) === before) break; // a cap: the steppers' own rules decide
      }
    }
    if (p.select) {
      const found = findType(types, p.select);
      if (!found) return { key: 'reserve.query.typeNotFound', params: { name: p.select }, tone: 'error' };
      if (tickets.count(found.id) === 0) tickets.increment(found.group, found.id);
      if (p.price && tickets.isFlexiblePrice(found.type)) tickets.setFlexiblePrice(found.id, p.price);
    }
    return null;
  }

  /** The venue-local date of a link's session: an id is looked up, 'today' is the venue's today, 'next' the first
   *  available date. */
  private async dateOfSession(session: string): Promise<string | null> {
    const { context } = this;
    if (session === 'next') return this.dates.choosableDates[0]?.date ?? null;
    if (session === 'today') return context.venueDate((context.deps.now ?? (() => new Date()))());
    try {
      const detail = await context.deps.api.getSession(context.deps.eventId, session, context.datedGroupIds);
      return context.venueDate(detail.session.start_datetime);
    } catch {
      return null;
    }
  }
}

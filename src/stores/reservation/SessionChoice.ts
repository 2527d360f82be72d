import { makeAutoObservable, runInAction } from 'mobx';
import type { SessionDetail, SessionRow } from '../../api/events';
import { FEW_TICKETS_THRESHOLD, fewTicketsLeft } from '../../domain/availability';
import { formatSessionTime, isSessionSoldOut } from '../../domain/session-tabs';
import type { DateChoice } from './DateChoice';
import type { FlowContext } from './FlowContext';
import type { ReservationParts } from './types';

/**
 * The session (spec section 4): the sessions of the chosen date, the chosen session and its detail (the groups and
 * figures of that session), and the recovery when the session sells out before the reserve. Each read has a serial:
 * an answer to an older request is dropped.
 */
export class SessionChoice {
  sessions: SessionRow[] = [];
  sessionsLoading = false;
  selectedSessionId: string | null = null;
  detail: SessionDetail | null = null;
  detailLoading = false;
  private readonly context: FlowContext;
  private readonly dates: DateChoice;
  private readonly parts: ReservationParts;
  private serial = { sessions: 0, detail: 0 };
  /** Quantity-first: which of the date's times could hold the party at the last look (null: not looked yet). */
  private seenFits: string | null = null;

  constructor(context: FlowContext, dates: DateChoice, parts: ReservationParts) {
    this.context = context;
    this.dates = dates;
    this.parts = parts;
    makeAutoObservable<SessionChoice, 'context' | 'dates' | 'parts' | 'serial' | 'seenFits'>(
      this,
      { context: false, dates: false, parts: false, serial: false, seenFits: false },
      { autoBind: true, deep: false },
    );
  }

  get selectedSession(): SessionRow | null {
    return this.detail?.session ?? this.sessions.find((s) => s.id === this.selectedSessionId) ?? null;
  }
  get showFewTicketsWarning(): boolean {
    return (
      this.dates.effectiveMode === 'date' && !!this.detail && fewTicketsLeft(this.detail.session.availableCapacity, FEW_TICKETS_THRESHOLD)
    );
  }

  async loadSessions(date: string): Promise<void> {
    const request = ++this.serial.sessions;
    this.sessionsLoading = true;
    this.seenFits = null;
    try {
      const { api, eventId } = this.context.deps;
      const sessions =
        this.dates.quantityFirst && api.getSessionsForSelection
          ? await api.getSessionsForSelection(eventId, date, this.parts.tickets.selection)
          : await api.getSessions(eventId, date, this.context.datedGroupIds);
      if (request !== this.serial.sessions || this.context.disposed) return;
      runInAction(() => {
        this.sessions = sessions;
        this.sessionsLoading = false;
      });
    } catch {
      if (request !== this.serial.sessions) return;
      runInAction(() => {
        this.sessions = [];
        this.sessionsLoading = false;
        this.context.notice = { key: 'app.unexpectedError', tone: 'error' };
      });
    }
  }

  async selectSession(sessionId: string): Promise<void> {
    const session = this.sessions.find((s) => s.id === sessionId);
    if (!session || isSessionSoldOut(session)) return; // a sold-out session is refused
    this.selectedSessionId = sessionId;
    this.detail = null;
    this.context.notice = null;
    if (!this.dates.quantityFirst) this.parts.tickets.reset();
    const request = ++this.serial.detail;
    this.detailLoading = true;
    try {
      const { api, eventId } = this.context.deps;
      const detail = await api.getSession(eventId, sessionId, this.context.datedGroupIds);
      if (request !== this.serial.detail || this.context.disposed) return;
      runInAction(() => {
        this.detail = detail;
        this.detailLoading = false;
        if (!this.dates.quantityFirst) this.parts.tickets.reset();
      });
    } catch {
      if (request !== this.serial.detail) return;
      runInAction(() => {
        this.detailLoading = false;
        this.context.notice = { key: 'reserve.errors.sessionUnavailable', tone: 'error' };
      });
    }
  }

  /**
   * Live availability (issue 16): the chosen date's sessions read again quietly (no loading state; the server
   * answers it from its short read cache), and the chosen session's detail only when its figure moved. A chosen
   * session that sold out meanwhile is dropped with the spec's message before the shopper submits. Also after a
   * refused reserve, so '{n} left' is always the latest answer's.
   *
   * Quantity-first, the times come from a POST with the selection (which times fit it all), which no cache answers and
   * costs the server about what an uncached read does (README, Performance): the same cached GET of the date is read,
   * its figures shown, and the POST asked again only when a time's room crossed the party's size (it may no longer fit,
   * or fit again). An open page costs one cached read per look; a POST only at such a crossing.
   */
  async refresh(): Promise<void> {
    const date = this.dates.selectedDate;
    if (!date || this.sessionsLoading || this.detailLoading || this.context.disposed) return;
    const request = ++this.serial.sessions;
    const { api, eventId } = this.context.deps;
    let sessions: SessionRow[];
    try {
      sessions = await api.getSessions(eventId, date, this.context.datedGroupIds);
      if (this.dates.quantityFirst && api.getSessionsForSelection) {
        const party = this.parts.tickets.ticketCount;
        const fits = sessions
          .map((s) => `${s.id}:${isSessionSoldOut(s) || (s.availableCapacity >= 0 && s.availableCapacity < party)}`)
          .join(',');
        if (fits !== this.seenFits) {
          this.seenFits = fits;
          sessions = await api.getSessionsForSelection(eventId, date, this.parts.tickets.selection);
        } else {
          // the times that fit stay as the last POST said; their '{n} left' is the latest read's
          const latest = new Map(sessions.map((s) => [s.id, s]));
          sessions = this.sessions.map((s) => ({ ...s, availableCapacity: latest.get(s.id)?.availableCapacity ?? s.availableCapacity }));
        }
      }
    } catch {
      return; // a missed refresh changes nothing; the next one tries again
    }
    if (request !== this.serial.sessions || this.context.disposed || this.dates.selectedDate !== date) return;
    const chosen = this.selectedSessionId ? sessions.find((s) => s.id === this.selectedSessionId) : undefined;
    runInAction(() => {
      this.sessions = sessions;
    });
    if (!chosen) return;
    if (isSessionSoldOut(chosen)) {
      await this.recoverFromSoldOut(sessions);
      return;
    }
    if (this.detail && chosen.availableCapacity !== this.detail.session.availableCapacity) {
      const detailRequest = ++this.serial.detail;
      const detail = await api.getSession(eventId, chosen.id, this.context.datedGroupIds).catch(() => null);
      if (!detail || detailRequest !== this.serial.detail || this.context.disposed) return;
      // The shopper's quantities stay: only the figures change.
      runInAction(() => {
        this.detail = detail;
      });
    }
  }

  /** Spec section 4: reload sessions; another with capacity -> pick another session; none -> reload the calendar, clear the date. */
  async recoverFromSoldOut(fresh?: SessionRow[]): Promise<void> {
    const failed = this.selectedSession;
    const date = this.dates.selectedDate;
    if (!date) return;
    if (fresh) this.sessions = fresh;
    else await this.loadSessions(date);
    if (this.sessions.some((s) => !isSessionSoldOut(s))) {
      runInAction(() => {
        this.clear();
        this.context.notice = {
          key: 'reserve.soldOut.session',
          params: { time: failed ? formatSessionTime(failed.start_datetime, this.context.timezone) : '' },
          tone: 'error',
        };
      });
      return;
    }
    await this.dates.dropSoldOutDate(date);
  }

  /** The chosen session goes (a late detail answer is dropped); the date's sessions stay. */
  clear(): void {
    this.selectedSessionId = null;
    this.detail = null;
    this.serial.detail++;
    this.detailLoading = false;
  }

  /** The date's sessions and the chosen session go. */
  reset(): void {
    this.clear();
    this.sessions = [];
  }
}

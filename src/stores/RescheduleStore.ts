import { makeAutoObservable, runInAction } from 'mobx';
import type { AxiosInstance } from 'axios';
import * as ordersApi from '../api/orders';
import { getCalendar, getSessionsOnDate } from '../api/reservation-reads';
import { toApiError, type ApiError } from '../api/errors';
import type { CalendarDayRow, SessionRow } from '../contract/catalogue';
import type { TicketRow } from '../contract/cart';
import type { SelfEditAnswer } from '../contract/self-edit';
import { errorMessageKey } from '../domain/error-messages';
import { decimalToMinor } from '../domain/pricing';
import { venueDate } from '../domain/dates';
import { formatSessionTime } from '../domain/session-tabs';
import { rescheduleIncrease } from '../domain/self-edit';
import { manageMessage } from './ManageStore';

/** A message and what it names. */
export interface Message {
  key: string;
  values?: Record<string, string>;
}

const SOLD_OUT = ['event_session_sold_out', 'session_capacity_exceeded', 'ticket_group_sold_out', 'ticket_group_capacity_exceeded'];
const CONTACT_US = ['tickets_too_old', 'ticket_state_incorrect', 'ticket_not_found'];

/**
 * Spec section 8 for a reschedule: event_session_sold_out on reserve names the time ('Tickets have sold out for the
 * session at {time}...'); tickets_too_old, ticket_state_incorrect and ticket_not_found (on cart_remove_tickets) and a
 * seller who does not allow it read 'Please contact us to reschedule your tickets.'; cart_expired tells the visitor to
 * start again; logged in, 'Please log-out to edit your tickets'.
 */
export function rescheduleMessage(error: ApiError, time: string): Message {
  if (SOLD_OUT.includes(error._code)) return { key: 'reschedule.soldOut', values: { time } };
  if (CONTACT_US.includes(error._code)) return { key: 'manage.contactToReschedule' };
  if (error._code === 'order_not_self_editable')
    return { key: error._extra?.reason === 'logged_in' ? 'manage.logOut' : 'manage.contactToReschedule' };
  if (error._code === 'cart_expired') return { key: 'manage.editExpired' };
  if (error.status === 404) return { key: manageMessage(error) };
  return { key: errorMessageKey(error) };
}

export interface RescheduleStoreDeps {
  api: AxiosInstance;
  orderId: string;
  /** the order's session whose tickets move */
  sessionId: string;
  signature: string | null;
  timezone: string;
}

/** Spec section 9: up to 8 date buttons. */
const DATE_BUTTONS = 8;

/**
 * /manage/{orderId}/reschedule/{sessionId} (spec section 2): the order's tickets at that session, the event's dates
 * and times to move them to, the cost-increase warning for a pricier time, and the move into the order's edit cart.
 */
export class RescheduleStore {
  state: 'loading' | 'ready' | 'error' = 'loading';
  answer: SelfEditAnswer | null = null;
  loadMessage: string | null = null;
  calendar: CalendarDayRow[] = [];
  selectedDate: string | null = null;
  sessions: SessionRow[] = [];
  sessionsLoading = false;
  selectedSessionId: string | null = null;
  /** the price increase of the tickets' current time, minor units */
  oldIncrease = 0;
  submitting = false;
  message: Message | null = null;
  done = false;
  private live = false;
  private readonly deps: RescheduleStoreDeps;

  constructor(deps: RescheduleStoreDeps) {
    this.deps = deps;
    makeAutoObservable<RescheduleStore, 'deps' | 'live'>(this, { deps: false, live: false }, { autoBind: true, deep: false });
  }

  start(): void {
    this.live = true;
    void this.load();
  }

  dispose(): void {
    this.live = false;
  }

  /** The order's tickets at this session that may move. */
  get tickets(): TicketRow[] {
    const movable = new Set(this.answer?.self_edit._data[0]?.reschedulable_ticket_ids ?? []);
    return (this.answer?.ticket?._data ?? []).filter((t) => t.event_session_id === this.deps.sessionId && movable.has(t.id));
  }

  get eventId(): string | null {
    return this.tickets[0]?.event_template_id ?? null;
  }

  get eventName(): string {
    return this.answer?.event_template?._data.find((e) => e.id === this.eventId)?.name ?? '';
  }

  get currentStart(): string | null {
    return this.tickets[0]?.start_datetime ?? null;
  }

  get groupIds(): string[] {
    return [...new Set(this.tickets.map((t) => t.ticket_group_id))];
  }

  get dateButtons(): CalendarDayRow[] {
    return this.calendar.filter((d) => d.enabled).slice(0, DATE_BUTTONS);
  }

  get selectedSession(): SessionRow | null {
    return this.sessions.find((s) => s.id === this.selectedSessionId) ?? null;
  }

  /**
   * What the move costs more (the cost-increase warning, spec section 8): each ticket the new time's price increase
   * over the old one's (rescheduleIncrease, the rule the server prices the new tickets by), minor units.
   */
  get costIncrease(): number {
    const session = this.selectedSession;
    if (!session) return 0;
    const types = this.answer?.ticket_type?._data ?? [];
    return this.tickets.reduce((sum, t) => {
      const type = types.find((x) => x.id === t.ticket_type_id);
      const flexible = type?.currency_amount_min != null && type?.currency_amount_max != null;
      return sum + rescheduleIncrease(this.oldIncrease, decimalToMinor(session.priceIncrease), flexible);
    }, 0);
  }

  async load(): Promise<void> {
    const { api, orderId, signature, sessionId, timezone } = this.deps;
    try {
      const answer = await ordersApi.getSelfEdit(api, orderId, signature);
      runInAction(() => {
        this.answer = answer;
      });
      const eventId = this.eventId;
      if (eventId && this.currentStart) {
        const date = venueDate(this.currentStart, timezone);
        const [calendar, sessions] = await Promise.all([
          getCalendar(api, eventId, this.groupIds),
          getSessionsOnDate(api, eventId, date, this.groupIds),
        ]);
        runInAction(() => {
          this.calendar = calendar;
          this.selectedDate = date;
          this.sessions = sessions;
          this.oldIncrease = decimalToMinor(sessions.find((s) => s.id === sessionId)?.priceIncrease);
        });
      }
      runInAction(() => {
        if (this.live) this.state = 'ready';
      });
    } catch (err) {
      runInAction(() => {
        this.loadMessage = manageMessage(toApiError(err));
        this.state = 'error';
      });
    }
  }

  async selectDate(date: string): Promise<void> {
    const eventId = this.eventId;
    if (!eventId) return;
    this.selectedDate = date;
    this.selectedSessionId = null;
    this.message = null;
    this.sessionsLoading = true;
    try {
      const sessions = await getSessionsOnDate(this.deps.api, eventId, date, this.groupIds);
      runInAction(() => {
        if (this.selectedDate === date) this.sessions = sessions;
      });
    } catch (err) {
      runInAction(() => {
        this.message = { key: errorMessageKey(toApiError(err)) };
      });
    } finally {
      runInAction(() => {
        this.sessionsLoading = false;
      });
    }
  }

  selectSession(sessionId: string): void {
    this.selectedSessionId = sessionId;
    this.message = null;
  }

  /** Moves the tickets into the order's edit cart; `done` once the edit holds them (the screen goes back to the order). */
  async submit(): Promise<void> {
    const session = this.selectedSession;
    if (!session || this.submitting || this.tickets.length === 0) return;
    this.submitting = true;
    this.message = null;
    try {
      await ordersApi.rescheduleTickets(
        this.deps.api,
        this.deps.orderId,
        { tickets: this.tickets.map((t) => t.id), event_session_id: session.id },
        this.deps.signature,
      );
      runInAction(() => {
        this.done = true;
      });
    } catch (err) {
      const error = toApiError(err);
      const message = rescheduleMessage(error, formatSessionTime(session.start_datetime, this.deps.timezone));
      runInAction(() => {
        this.message = message;
      });
      // A time that sold out meanwhile shows as such when the times are read again.
      if (message.key === 'reschedule.soldOut' && this.selectedDate) await this.selectDate(this.selectedDate);
      runInAction(() => {
        this.message = message;
      });
    } finally {
      runInAction(() => {
        this.submitting = false;
      });
    }
  }
}

import { makeAutoObservable, observable, runInAction } from 'mobx';
import type { TicketGroupRow, TicketTypeRow } from '../../api/events';
import type { SeatMapData } from '../../api/seating';
import type { SeatState } from '../../contract/seating';
import { assignSeats, groupColor, inSeatOrder, placeParty, rowsOf, SEAT_MAP, shownState, type Seat } from '../../domain/seating';
import type { ReserveLineInput } from '../../domain/quantity';
import type { FlowContext } from './FlowContext';
import type { Quantities } from './Quantities';
import type { SessionChoice } from './SessionChoice';

/** The selector's states (spec section 4): closed, rendering (the 50 ms open delay, the map loading), open. */
export type SelectorState = 'closed' | 'rendering' | 'open';

/** A seated group the shopper has tickets in: how many seats it needs, its colour, its ticket types by rank. */
export interface SeatNeed {
  group: TicketGroupRow;
  count: number;
  color: string;
  /** the type of each of the group's tickets, in the order seats are given to them */
  types: TicketTypeRow[];
}

/** What the last pick did, for the map's live region. */
export interface PickMessage {
  key: string;
  params?: Record<string, string | number>;
  seats?: Seat[];
}

/**
 * Seat selection (spec sections 2 and 4): the selector, the session's map, the seats chosen per seated group,
 * the group filter, and what was lost to another shopper at the reserve. A choice belongs to the session it was
 * made for, and each group keeps at most as many seats as it has tickets.
 */
export class SeatChoice {
  selector: SelectorState = 'closed';
  map: SeatMapData | null = null;
  /** seat id -> the group it is chosen for, in the order chosen */
  readonly chosen = observable.map<string, string>();
  /** the session the map and the choice are for */
  choiceFor: string | null = null;
  confirmed = false;
  /** the group filter: one group's seats, or all (null) */
  filter: string | null = null;
  /** seats another shopper took between the look at the map and the reserve */
  lost: Seat[] = [];
  message: PickMessage | null = null;
  private readonly context: FlowContext;
  private readonly sessionChoice: SessionChoice;
  private readonly tickets: Quantities;
  private serial = 0;

  constructor(context: FlowContext, sessionChoice: SessionChoice, tickets: Quantities) {
    this.context = context;
    this.sessionChoice = sessionChoice;
    this.tickets = tickets;
    makeAutoObservable<SeatChoice, 'context' | 'sessionChoice' | 'tickets' | 'serial'>(
      this,
      { context: false, sessionChoice: false, tickets: false, serial: false, chosen: false },
      { autoBind: true, deep: false },
    );
  }

  get sessionId(): string | null {
    return this.sessionChoice.selectedSessionId;
  }
  /** Whether this event sells seats at all (the map's code is fetched early for these). */
  get eventIsSeated(): boolean {
    return this.context.datedGroups.some((g) => g.handler === 'seated');
  }

  /** Seated groups with tickets chosen, in rank order. */
  get needs(): SeatNeed[] {
    return this.tickets.shownGroups
      .map(({ group, types }, index) => ({
        group,
        count: this.tickets.groupCount(group.id),
        color: groupColor(group.color, index),
        types: types.flatMap((t) => Array.from({ length: this.tickets.count(t.id) }, () => t)),
      }))
      .filter((n) => n.group.handler === 'seated' && n.count > 0);
  }
  get needsSeats(): boolean {
    return this.needs.length > 0;
  }

  get seatsById(): Map<string, Seat> {
    return new Map((this.map?.seats ?? []).map((s) => [s.seat_template_id, s]));
  }
  get rows(): Seat[][] {
    return rowsOf(this.map?.seats ?? []);
  }

  /** The valid choice per group, in reading order: this session's, at most the group's ticket count. */
  get chosenByGroup(): Map<string, Seat[]> {
    const out = new Map<string, Seat[]>();
    if (this.choiceFor !== this.sessionId) return out;
    const byId = this.seatsById;
    for (const need of this.needs) {
      const ids = [...this.chosen].filter(([, g]) => g === need.group.id).map(([id]) => id);
      const seats = ids.map((id) => byId.get(id)).filter((s): s is Seat => !!s);
      out.set(need.group.id, inSeatOrder(seats.slice(0, need.count)));
    }
    return out;
  }
  get chosenSeats(): Seat[] {
    return inSeatOrder([...this.chosenByGroup.values()].flat());
  }
  /** Each chosen seat with the ticket type it is for. */
  get chosenLines(): Array<{ seat: Seat; type: TicketTypeRow | undefined }> {
    return this.needs.flatMap((need) => (this.chosenByGroup.get(need.group.id) ?? []).map((seat, i) => ({ seat, type: need.types[i] })));
  }
  isChosen(seatId: string): boolean {
    return this.chosenSeats.some((s) => s.seat_template_id === seatId);
  }
  remaining(groupId: string): number {
    const need = this.needs.find((n) => n.group.id === groupId);
    return need ? need.count - (this.chosenByGroup.get(groupId)?.length ?? 0) : 0;
  }
  get chosenCount(): number {
    return this.chosenSeats.length;
  }
  get neededCount(): number {
    return this.needs.reduce((s, n) => s + n.count, 0);
  }
  /** Every seated ticket has its seat ('Confirm Selection' is enabled). */
  get satisfied(): boolean {
    return this.needs.every((n) => (this.chosenByGroup.get(n.group.id)?.length ?? 0) === n.count);
  }
  /** Seats chosen and confirmed: the list of chosen seats replaces 'find seats', and the reserve may go. */
  get ready(): boolean {
    return !this.needsSeats || (this.satisfied && this.confirmed);
  }

  /** Groups whose seats the map offers now: those still needing seats (one only, with the filter). */
  get wantedGroups(): Set<string> {
    const ids = this.needs.map((n) => n.group.id).filter((id) => !this.filter || id === this.filter);
    return new Set(ids);
  }
  stateOf(seat: Seat): SeatState {
    return shownState(seat, this.isChosen(seat.seat_template_id), this.wantedGroups);
  }
  /** The group a seat shows the colour of: the first of its groups the shopper is buying, else its first. */
  needOf(seat: Seat): SeatNeed | undefined {
    return this.needs.find((n) => seat.ticket_groups.includes(n.group.id));
  }
  /** The price of the ticket the seat has, or would get as the group's next seat (the group's first type otherwise). */
  priceOf(seat: Seat): string | null {
    if (seat.state !== 'available') return null;
    const need = this.needOf(seat);
    if (!need) return null;
    const chosen = this.chosenByGroup.get(need.group.id) ?? [];
    const at = chosen.findIndex((s) => s.seat_template_id === seat.seat_template_id);
    const type = need.types[at >= 0 ? at : Math.min(chosen.length, need.types.length - 1)];
    return type ? (type.discounted_amount ?? type.currency_amount) : null;
  }

  /** 'find seats' / 'change selected seats': the selector renders (at least the 50 ms open delay) with a fresh map. */
  async open(): Promise<void> {
    const { api, eventId } = this.context.deps;
    const sessionId = this.sessionId;
    if (!sessionId || !api.getSeatMap) return;
    const request = ++this.serial;
    if (this.choiceFor !== sessionId) {
      this.chosen.clear();
      this.map = null;
      this.choiceFor = sessionId;
    }
    this.selector = 'rendering';
    this.message = null;
    try {
      const [map] = await Promise.all([api.getSeatMap(eventId, sessionId), new Promise((r) => setTimeout(r, SEAT_MAP.openDelayMs))]);
      if (request !== this.serial || this.context.disposed) return;
      runInAction(() => {
        this.map = map;
        // Seats someone else took since the last look leave the choice.
        for (const [id] of [...this.chosen])
          if (map.seats.find((s) => s.seat_template_id === id)?.state !== 'available') this.chosen.delete(id);
        this.selector = 'open';
      });
    } catch {
      if (request !== this.serial) return;
      runInAction(() => {
        this.selector = 'closed';
        this.context.notice = { key: 'app.unexpectedError', tone: 'error' };
      });
    }
  }

  /** 'Confirm Selection': only once every seated ticket has its seat. */
  confirm(): boolean {
    if (!this.satisfied || this.selector !== 'open') return false;
    this.confirmed = true;
    this.lost = [];
    this.close();
    return true;
  }
  /** Leaving the selector without confirming clears the chosen seats (spec section 4). */
  leave(): void {
    this.chosen.clear();
    this.confirmed = false;
    this.lost = [];
    this.close();
  }
  private close(): void {
    this.serial++;
    this.selector = 'closed';
    this.message = null;
    this.filter = null;
  }

  setFilter(groupId: string | null): void {
    this.filter = groupId;
  }

  /** A pick on the map: a chosen seat is given back; an available one seats as much of its group's party as fits there. */
  choose(seatId: string): void {
    const seat = this.seatsById.get(seatId);
    if (!seat || this.choiceFor !== this.sessionId) return;
    this.confirmed = false;
    if (this.isChosen(seatId)) {
      this.chosen.delete(seatId);
      this.message = { key: 'seats.picked.released', seats: [seat] };
      return;
    }
    if (this.stateOf(seat) !== 'available') {
      this.message = { key: 'seats.picked.notAvailable', seats: [seat] };
      return;
    }
    const group =
      seat.ticket_groups.find((g) => this.wantedGroups.has(g) && this.remaining(g) > 0) ??
      seat.ticket_groups.find((g) => this.wantedGroups.has(g));
    if (!group || this.remaining(group) === 0) {
      this.message = { key: 'seats.picked.allChosen' };
      return;
    }
    const party = placeParty(
      this.seatsById,
      seatId,
      this.remaining(group),
      (s) => s.state === 'available' && !this.isChosen(s.seat_template_id) && s.ticket_groups.includes(group),
    );
    for (const id of party) this.chosen.set(id, group);
    const byId = this.seatsById;
    this.message = { key: 'seats.picked.chosen', seats: party.map((id) => byId.get(id)!), params: { count: party.length } };
  }

  /** The reservation lines with their seats: each seated group's tickets take its chosen seats in reading order. */
  assign(lines: ReserveLineInput[]): ReserveLineInput[] {
    const groupOfType = new Map(this.tickets.shownGroups.flatMap(({ group, types }) => types.map((t) => [t.id, group.id] as const)));
    const seats = this.chosenByGroup;
    return assignSeats(
      lines,
      (typeId) => groupOfType.get(typeId),
      (groupId) => (seats.get(groupId) ?? []).map((s) => s.seat_template_id),
    );
  }

  /** The reserve found seats taken by someone else: they leave the choice, and the map opens again, fresh, saying so. */
  async seatsLost(seatIds: string[]): Promise<void> {
    const byId = this.seatsById;
    this.lost = seatIds.map((id) => byId.get(id)).filter((s): s is Seat => !!s);
    for (const id of seatIds) this.chosen.delete(id);
    this.confirmed = false;
    await this.open();
  }
}

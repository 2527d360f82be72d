import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/errors';
import type { ReservableEvent } from '../../src/api/events';
import type { SeatRow } from '../../src/contract/seating';
import { ReservationStore, type ReservationApi } from '../../src/stores/ReservationStore';
import { dayRow, groupRow, sessionRow, typeRow } from '../helpers/catalogue-rows';
import { seatGrid } from '../helpers/seat-rows';

/** The seat selection of the reservation flow (spec sections 2, 4 and 5) on a fake API. */
const TZ = 'America/New_York';
const orch = groupRow('orch', { name: 'Orchestra', handler: 'seated', color: '#1f77b4', _rank: 0 });
const balc = groupRow('balc', { name: 'Balcony', handler: 'seated', color: null, _rank: 1 });
const types = [
  typeRow('adult', 'orch', { name: 'Adult', currency_amount: '45.00', _rank: 0 }),
  typeRow('student', 'orch', { name: 'Student', currency_amount: '30.00', _rank: 1 }),
  typeRow('balc-adult', 'balc', { name: 'Adult', currency_amount: '25.00' }),
];
const mapSeats = (): SeatRow[] => [...seatGrid({ A: 5, B: 5 }, ['orch']), ...seatGrid({ N: 4 }, ['balc'], 'Balcony')];

function setup(seats: () => SeatRow[] = mapSeats) {
  const data: ReservableEvent = {
    event: {
      id: 'e1',
      seller_id: 's',
      name: 'Concert',
      category: 'performance',
      subtitle: null,
      summary: null,
      description: null,
      event_type: 'repeating',
      hidden_type: 'public_browsable',
      venue_id: null,
      _rank: 0,
      metadata: {},
      next_session_start: null,
      meta: {},
    },
    venue: null,
    groups: [orch, balc],
    types,
    messageRules: [],
    ticketRules: [],
  };
  const api: ReservationApi = {
    getEvent: vi.fn(async () => data),
    getCalendar: vi.fn(async () => [dayRow('2026-11-27')]),
    getSessions: vi.fn(async () => [sessionRow('s1', '2026-11-28T00:30:00Z'), sessionRow('s2', '2026-11-29T00:30:00Z')]),
    getSession: vi.fn(async (_e: string, sid: string) => ({
      session: sessionRow(sid, '2026-11-28T00:30:00Z'),
      groups: [orch, balc],
      types,
    })),
    getSeatMap: vi.fn(async () => ({ seatMap: { id: 'm', name: 'Hall', width: 300, height: 200 }, seats: seats() })),
  };
  const cart = { reserve: vi.fn<(lines: unknown[]) => Promise<void>>(async () => {}) };
  const store = new ReservationStore({ api, cart, eventId: 'e1', timezone: TZ });
  return { store, api, cart };
}

async function withTickets(counts: Record<string, number>, seats?: () => SeatRow[]) {
  const ctx = setup(seats);
  await ctx.store.load();
  await ctx.store.selectDate('2026-11-27');
  await ctx.store.selectSession('s1');
  for (const [type, n] of Object.entries(counts)) {
    const group = type.startsWith('balc') ? balc : orch;
    for (let i = 0; i < n; i++) ctx.store.increment(group, type);
  }
  return ctx;
}
const ids = (list: Array<{ seat_template_id: string }>) => list.map((s) => s.seat_template_id);

describe('seat selection', () => {
  it('needs seats only for seated groups with tickets; the reserve waits for confirmed seats', async () => {
    const { store, cart } = await withTickets({});
    expect(store.seats.needsSeats).toBe(false);
    store.increment(orch, 'adult');
    expect(store.seats.needsSeats).toBe(true);
    expect(await store.submit()).toBe(false);
    expect(store.notice).toEqual({ key: 'reserve.guard.seats', tone: 'error' });
    expect(cart.reserve).not.toHaveBeenCalled();
  });

  it('opens through rendering (the 50 ms delay and the map read) to open, and leaving clears the choice', async () => {
    vi.useFakeTimers();
    try {
      const { store, api } = await withTickets({ adult: 2 });
      const opening = store.seats.open();
      expect(store.seats.selector).toBe('rendering');
      await vi.advanceTimersByTimeAsync(49);
      expect(store.seats.selector).toBe('rendering');
      await vi.advanceTimersByTimeAsync(1);
      await opening;
      expect(store.seats.selector).toBe('open');
      expect(api.getSeatMap).toHaveBeenCalledWith('e1', 's1');
      store.seats.choose('A1');
      expect(store.seats.chosenCount).toBe(2);
      store.seats.leave();
      expect(store.seats.selector).toBe('closed');
      expect(store.seats.chosenCount).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('one pick seats the party together, types in order; confirm only once satisfied; the lines carry the seats', async () => {
    const { store, cart } = await withTickets({ adult: 2, student: 1 });
    await store.seats.open();
    expect(store.seats.confirm()).toBe(false);
    store.seats.choose('A2');
    expect(ids(store.seats.chosenSeats)).toEqual(['A2', 'A3', 'A4']);
    expect(store.seats.message).toMatchObject({ key: 'seats.picked.chosen', params: { count: 3 } });
    const price = (id: string) => store.seats.priceOf(store.seats.seatsById.get(id)!);
    expect([price('A2'), price('A3'), price('A4')]).toEqual(['45.00', '45.00', '30.00']);
    expect(store.seats.stateOf(store.seats.seatsById.get('A2')!)).toBe('selected');
    // Balcony seats are not for these tickets.
    expect(store.seats.stateOf(store.seats.seatsById.get('N1')!)).toBe('unavailable');
    expect(store.seats.confirm()).toBe(true);
    expect(store.seats.ready).toBe(true);
    expect(store.seats.chosenLines.map(({ seat, type }) => [seat.seat_template_id, type?.name])).toEqual([
      ['A2', 'Adult'],
      ['A3', 'Adult'],
      ['A4', 'Student'],
    ]);
    expect(await store.submit()).toBe(true);
    expect(cart.reserve.mock.calls[0][0]).toEqual([
      { event_session_id: 's1', ticket_type_id: 'adult', seat_id: 'A2' },
      { event_session_id: 's1', ticket_type_id: 'adult', seat_id: 'A3' },
      { event_session_id: 's1', ticket_type_id: 'student', seat_id: 'A4' },
    ]);
  });

  it('a chosen seat is given back by choosing it again; sold and blocked seats cannot be chosen; no seat beyond the tickets', async () => {
    const taken = () => mapSeats().map((s) => (s.seat_template_id === 'B3' ? { ...s, state: 'booked' as const } : s));
    const { store } = await withTickets({ adult: 2 }, taken);
    await store.seats.open();
    store.seats.choose('B3');
    expect(store.seats.chosenCount).toBe(0);
    expect(store.seats.message?.key).toBe('seats.picked.notAvailable');
    store.seats.choose('B2');
    expect(ids(store.seats.chosenSeats)).toEqual(['B1', 'B2']);
    store.seats.choose('A1');
    expect(store.seats.message?.key).toBe('seats.picked.allChosen');
    store.seats.choose('B1');
    expect(ids(store.seats.chosenSeats)).toEqual(['B2']);
    expect(store.seats.satisfied).toBe(false);
    store.seats.choose('A5');
    expect(ids(store.seats.chosenSeats)).toEqual(['A5', 'B2']);
    expect(store.seats.satisfied).toBe(true);
  });

  it('with two groups: a filter per group, each seat goes to its own group, and colours come from the palette', async () => {
    const { store } = await withTickets({ adult: 1, 'balc-adult': 1 });
    await store.seats.open();
    expect(store.seats.needs.map((n) => [n.group.name, n.count, n.color])).toEqual([
      ['Orchestra', 1, '#1f77b4'],
      ['Balcony', 1, '#aec7e8'],
    ]);
    store.seats.setFilter('balc');
    expect(store.seats.stateOf(store.seats.seatsById.get('A1')!)).toBe('unavailable');
    store.seats.choose('A1');
    expect(store.seats.chosenCount).toBe(0);
    store.seats.choose('N2');
    store.seats.setFilter(null);
    store.seats.choose('A1');
    expect([...store.seats.chosenByGroup].map(([g, s]) => [g, ids(s)])).toEqual([
      ['orch', ['A1']],
      ['balc', ['N2']],
    ]);
  });

  it('fewer tickets keep fewer seats; another session starts a new choice', async () => {
    const { store } = await withTickets({ adult: 3 });
    await store.seats.open();
    store.seats.choose('A1');
    store.seats.confirm();
    store.decrement(orch, 'adult');
    expect(ids(store.seats.chosenSeats)).toEqual(['A1', 'A2']);
    expect(store.seats.ready).toBe(true);
    await store.selectSession('s2');
    store.increment(orch, 'adult');
    expect(store.seats.chosenCount).toBe(0);
    expect(store.seats.ready).toBe(false);
  });

  it('a seat taken by someone else at the reserve: it leaves the choice, the map opens again fresh and says so', async () => {
    let sold = false;
    const seats = () => mapSeats().map((s) => (sold && s.seat_template_id === 'A2' ? { ...s, state: 'booked' as const } : s));
    const { store, cart, api } = await withTickets({ adult: 2 }, seats);
    await store.seats.open();
    store.seats.choose('A1');
    store.seats.confirm();
    sold = true;
    cart.reserve.mockRejectedValueOnce(
      new ApiError(409, 'seat_unavailable', 'The selected seat is no longer available.', 'reserve', { seat_ids: ['A2'] }),
    );
    expect(await store.submit()).toBe(false);
    expect(api.getSeatMap).toHaveBeenCalledTimes(2);
    expect(store.seats.selector).toBe('open');
    expect(ids(store.seats.lost)).toEqual(['A2']);
    expect(ids(store.seats.chosenSeats)).toEqual(['A1']);
    expect(store.seats.stateOf(store.seats.seatsById.get('A2')!)).toBe('booked');
    expect(store.seats.ready).toBe(false);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { dayRow, groupRow, sessionRow, typeRow } from '../helpers/catalogue-rows';
import type { ReservableEvent, TicketSelection } from '../../src/api/events';
import { ReservationStore, type ReservationApi } from '../../src/stores/ReservationStore';
import { parsePreselection } from '../../src/domain/preselect';

const TZ = 'America/New_York';
const group = (id: string) => groupRow(id, { max_tickets_per_order: 10, capacity: 20, available_capacity: 20 });
const type = (id: string, name: string) => typeRow(id, 'tour', { name, event_template_category: 'tour' });
const session = (id: string, start: string, soldOut = false) =>
  sessionRow(id, start, { capacity: 20, sold_out: soldOut, availableCapacity: soldOut ? 0 : 20 });
const day = (date: string, status: 'available' | 'sold_out' = 'available') => dayRow(date, { status });

/** A guided tour sold quantity-first: with 5 to 8 tickets only the 24th has room, with more no day. */
function tour(flow: 'quantity_first' | 'date_first' = 'quantity_first') {
  const groups = [group('tour')];
  const types = [type('adult', 'Adult'), type('student', 'Student')];
  const data = {
    event: { id: 'e1', name: 'Tour', meta: { reserve_flow: flow } },
    venue: { id: 'v', name: 'V', timezone: TZ },
    groups,
    types,
    messageRules: [],
    ticketRules: [],
  } as unknown as ReservableEvent;
  const total = (tickets: TicketSelection[]) => tickets.reduce((n, t) => n + t.quantity, 0);
  const api: ReservationApi = {
    getEvent: vi.fn(async () => data),
    getCalendar: vi.fn(async () => [day('2026-11-23'), day('2026-11-24')]),
    getSessions: vi.fn(async () => [session('s1', '2026-11-23T15:00:00Z')]),
    getSession: vi.fn(async (_e: string, sid: string) => ({ session: session(sid, '2026-11-24T15:00:00Z'), groups, types })),
    getCalendarForSelection: vi.fn(async (_e: string, tickets: TicketSelection[]) => [
      day('2026-11-23', total(tickets) >= 5 ? 'sold_out' : 'available'),
      day('2026-11-24', total(tickets) > 8 ? 'sold_out' : 'available'),
    ]),
    getSessionsForSelection: vi.fn(async (_e: string, date: string) => [
      session(`${date}-a`, `${date}T15:00:00Z`),
      session(`${date}-b`, `${date}T17:00:00Z`, true),
    ]),
  };
  const cart = { reserve: vi.fn(async () => {}) };
  return { store: new ReservationStore({ api, cart, eventId: 'e1', timezone: TZ }), api, cart };
}

describe('quantity-first reservation flow (spec section 4)', () => {
  it('quantities first, then the calendar for them, then date, session and submit with the chosen quantities', async () => {
    const { store, api, cart } = tour();
    await store.load();
    expect(store.quantityFirst).toBe(true);
    expect(store.showsSteppers).toBe(true);
    expect(store.dateButtons).toEqual([]);
    const [adult] = store.shownGroups[0].types;
    for (let i = 0; i < 5; i++) store.increment(store.shownGroups[0].group, adult.id);
    await store.findTickets();
    expect(api.getCalendarForSelection).toHaveBeenCalledWith('e1', [{ ticket_type_id: 'adult', quantity: 5 }]);
    expect(store.quantitiesOpen).toBe(false);
    expect(store.showsSteppers).toBe(false);
    // Only the 24th has room for 5: it is the one date, so it is chosen; its sessions are asked with the selection.
    expect(store.selectedDate).toBe('2026-11-24');
    expect(api.getSessionsForSelection).toHaveBeenCalledWith('e1', '2026-11-24', [{ ticket_type_id: 'adult', quantity: 5 }]);
    await store.selectSession('2026-11-24-a');
    expect(store.count('adult')).toBe(5);
    expect(await store.submit()).toBe(true);
    expect(cart.reserve).toHaveBeenCalledTimes(1);
  });

  it('no tickets: Find available tickets says what is missing; Change tickets clears the date and session', async () => {
    const { store, api } = tour();
    await store.load();
    await store.findTickets();
    expect(store.notice).toEqual({ key: 'reserve.guard.atLeastOneTicket', tone: 'error' });
    expect(api.getCalendarForSelection).not.toHaveBeenCalled();
    store.increment(store.shownGroups[0].group, 'adult');
    await store.findTickets();
    await store.selectDate('2026-11-23');
    await store.selectSession('2026-11-23-a');
    store.editQuantities();
    expect([store.quantitiesOpen, store.selectedDate, store.selectedSessionId]).toEqual([true, null, null]);
    expect(store.count('adult')).toBe(1);
  });

  it('no date with room for the selection says so; a sold-out time cannot be chosen', async () => {
    const { store } = tour();
    await store.load();
    for (let i = 0; i < 7; i++) store.increment(store.shownGroups[0].group, 'adult');
    for (let i = 0; i < 3; i++) store.increment(store.shownGroups[0].group, 'student');
    await store.findTickets();
    expect(store.notice).toEqual({ key: 'reserve.quantityFirst.noDates', tone: 'error' });
    store.editQuantities();
    store.decrement(store.shownGroups[0].group, 'student');
    store.decrement(store.shownGroups[0].group, 'student');
    await store.findTickets();
    await store.selectSession('2026-11-24-b');
    expect(store.selectedSessionId).toBeNull();
  });

  it('a link reserves quantity-first: quantities, the calendar for them, the next session, submit', async () => {
    const { store, cart } = tour();
    await store.load();
    expect(await store.preselect(parsePreselection(new URLSearchParams('quantity=Adult:2&session=next&reserve=1')))).toBe(true);
    expect(store.selectedDate).toBe('2026-11-23');
    expect(cart.reserve).toHaveBeenCalledTimes(1);
  });

  it('the same event sold date-first never shows steppers before a session', async () => {
    const { store } = tour('date_first');
    await store.load();
    expect(store.quantityFirst).toBe(false);
    expect(store.showsSteppers).toBe(false);
  });
});

describe('quantity-first live availability (issue 16)', () => {
  it("looks at the cached GET of the date each time; asks the POST again only when a time's room crosses the party's size; a time that no longer fits goes", async () => {
    const { store, api } = tour();
    const figures = { left: 20 };
    vi.mocked(api.getSessions).mockImplementation(async () => [
      sessionRow('2026-11-24-a', '2026-11-24T15:00:00Z', { capacity: 20, sold_out: figures.left === 0, availableCapacity: figures.left }),
    ]);
    await store.load();
    for (let i = 0; i < 5; i++) store.increment(store.shownGroups[0].group, 'adult');
    await store.findTickets();
    await store.selectSession('2026-11-24-a');
    const posts = () => vi.mocked(api.getSessionsForSelection!).mock.calls.length;
    const before = posts();
    await store.sessionChoice.refresh(); // the first look sets what was seen (and asks once)
    await store.sessionChoice.refresh();
    await store.sessionChoice.refresh();
    expect(vi.mocked(api.getSessions).mock.calls.length).toBe(3);
    expect(posts()).toBe(before + 1);
    // 10 left still holds the party of 5: no POST, and the figure shown is the latest read's
    figures.left = 10;
    await store.sessionChoice.refresh();
    expect(posts()).toBe(before + 1);
    expect(store.sessions.find((s) => s.id === '2026-11-24-a')?.availableCapacity).toBe(10);
    // Another buyer takes 16 places: the date's figure moves, the POST now says 5 do not fit the time.
    figures.left = 4;
    vi.mocked(api.getSessionsForSelection!).mockImplementation(async (_e: string, date: string) => [
      session(`${date}-a`, `${date}T15:00:00Z`, true),
      session(`${date}-b`, `${date}T17:00:00Z`),
    ]);
    await store.sessionChoice.refresh();
    expect(posts()).toBe(before + 2);
    expect(store.selectedSessionId).toBeNull();
    expect(store.notice?.key).toBe('reserve.soldOut.session');
  });
});

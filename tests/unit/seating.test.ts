import { describe, expect, it } from 'vitest';
import { assignSeats, groupColor, moveFrom, placeParty, rowsOf, SEAT_GROUP_PALETTE, shownState, type Seat } from '../../src/domain/seating';
import { bySeat, seatPlace } from '../../src/domain/seat-place';
import { seatGrid } from '../helpers/seat-rows';

/** Two rows of five (A, B) and a row of three (C) set back: the shapes the rules walk. */
const seats = seatGrid({ A: 5, B: 5, C: 3 });
const byId = new Map(seats.map((s) => [s.seat_template_id, s]));
const free =
  (taken: string[] = []) =>
  (s: Seat) =>
    s.state === 'available' && !taken.includes(s.seat_template_id);

describe('placeParty (spec section 4: neighbouring seats are tried for a party)', () => {
  it('seats the party from the clicked seat along its row', () => {
    expect(placeParty(byId, 'A2', 3, free())).toEqual(['A2', 'A3', 'A4']);
  });
  it('slides back toward previous seats when the row ends first', () => {
    expect(placeParty(byId, 'A4', 3, free())).toEqual(['A3', 'A4', 'A5']);
    expect(placeParty(byId, 'A5', 3, free())).toEqual(['A3', 'A4', 'A5']);
  });
  it('stops at taken seats and seats as much of the party as fits there', () => {
    expect(placeParty(byId, 'B2', 3, free(['B4']))).toEqual(['B1', 'B2', 'B3']);
    expect(placeParty(byId, 'B2', 4, free(['B4']))).toEqual(['B1', 'B2', 'B3']);
    expect(placeParty(byId, 'B5', 2, free(['B4']))).toEqual(['B5']);
  });
  it('takes nothing at a seat that is not free, or for nobody', () => {
    expect(placeParty(byId, 'B4', 2, free(['B4']))).toEqual([]);
    expect(placeParty(byId, 'A1', 0, free())).toEqual([]);
    expect(placeParty(byId, 'nowhere', 1, free())).toEqual([]);
  });
});

describe('moveFrom (arrow keys along rows and between them)', () => {
  const rows = rowsOf([...seats].reverse());
  it('orders rows front to back and seats left to right whatever the input order', () => {
    expect(rows.map((r) => r.map((s) => s.seat_template_id))).toEqual([
      ['A1', 'A2', 'A3', 'A4', 'A5'],
      ['B1', 'B2', 'B3', 'B4', 'B5'],
      ['C1', 'C2', 'C3'],
    ]);
  });
  it('left, right, home and end stay in the row; the edges hold', () => {
    expect(moveFrom(rows, 'A1', 'right')).toBe('A2');
    expect(moveFrom(rows, 'A1', 'left')).toBe('A1');
    expect(moveFrom(rows, 'A5', 'right')).toBe('A5');
    expect(moveFrom(rows, 'B3', 'home')).toBe('B1');
    expect(moveFrom(rows, 'B3', 'end')).toBe('B5');
  });
  it('up and down go to the nearest seat of the row in front or behind', () => {
    expect(moveFrom(rows, 'A3', 'down')).toBe('B3');
    // Row C is set back by one seat: B1 is nearest C1, B5 nearest C3.
    expect(moveFrom(rows, 'B1', 'down')).toBe('C1');
    expect(moveFrom(rows, 'B5', 'down')).toBe('C3');
    expect(moveFrom(rows, 'C2', 'up')).toBe('B3');
    expect(moveFrom(rows, 'A3', 'up')).toBe('A3');
    expect(moveFrom(rows, 'C2', 'down')).toBe('C2');
  });
});

describe('shownState (state is never colour alone: the map draws each as a shape)', () => {
  const wanted = new Set(['g']);
  it('chosen seats are selected; taken and blocked seats keep their state', () => {
    expect(shownState(byId.get('A1')!, true, wanted)).toBe('selected');
    expect(shownState({ ...byId.get('A1')!, state: 'booked' }, false, wanted)).toBe('booked');
    expect(shownState({ ...byId.get('A1')!, state: 'unavailable' }, false, wanted)).toBe('unavailable');
  });
  it('a seat whose groups the shopper is not buying (or are no longer available) cannot be chosen', () => {
    expect(shownState(byId.get('A1')!, false, wanted)).toBe('available');
    expect(shownState(byId.get('A1')!, false, new Set(['other']))).toBe('unavailable');
  });
});

describe('assignSeats', () => {
  it("gives each seated group's lines its seats in order and leaves other lines alone", () => {
    const lines = [{ ticket_type_id: 'adult' }, { ticket_type_id: 'adult' }, { ticket_type_id: 'student' }, { ticket_type_id: 'general' }];
    const group = (type: string) => (type === 'general' ? 'ga' : 'orch');
    const seatsOf = (g: string) => (g === 'orch' ? ['A1', 'A2', 'A3'] : []);
    expect(assignSeats(lines, group, seatsOf)).toEqual([
      { ticket_type_id: 'adult', seat_id: 'A1' },
      { ticket_type_id: 'adult', seat_id: 'A2' },
      { ticket_type_id: 'student', seat_id: 'A3' },
      { ticket_type_id: 'general' },
    ]);
  });
  it('lines beyond the chosen seats go without one (the server then asks for the seat)', () => {
    const out = assignSeats(
      [{ ticket_type_id: 'a' }, { ticket_type_id: 'a' }],
      () => 'orch',
      () => ['A1'],
    );
    expect(out).toEqual([{ ticket_type_id: 'a', seat_id: 'A1' }, { ticket_type_id: 'a' }]);
  });
});

describe('seat names and order', () => {
  const ticketSeat = (section: string, row: string, number: string | null) => ({
    id: `${row}${number}`,
    name: `X-${row}${number}`,
    section,
    row,
    number,
  });
  it("says a seat's place, and its name when it has no number", () => {
    expect(seatPlace(ticketSeat('Orchestra', 'C', '7'))).toEqual({ section: 'Orchestra', row: 'C', number: '7' });
    expect(seatPlace(ticketSeat('Box', 'A', null))).toEqual({ section: 'Box', row: 'A', number: 'X-Anull' });
  });
  it('orders by section, row and number, 10 after 9, seated tickets first', () => {
    const list = [ticketSeat('Orchestra', 'C', '10'), null, ticketSeat('Orchestra', 'C', '9'), ticketSeat('Balcony', 'N', '1')];
    expect(list.sort(bySeat).map((s) => s?.id ?? null)).toEqual(['N1', 'C9', 'C10', null]);
  });
  it('group colours: the group own colour, else the palette of 20 by rank', () => {
    expect(SEAT_GROUP_PALETTE).toHaveLength(20);
    expect(groupColor('#1f77b4', 5)).toBe('#1f77b4');
    expect(groupColor(null, 21)).toBe(SEAT_GROUP_PALETTE[1]);
    expect(groupColor('red', 0)).toBe(SEAT_GROUP_PALETTE[0]);
  });
});

import type { TicketSeat } from '../contract/seating';

/**
 * How a seat is named and ordered wherever a ticket shows it (cart, confirmation, account): small on purpose, since
 * the cart is on every page; the seat map's own rules are in seating.ts.
 */

/** Seats in the order a row reads: by section, row, then number (numerically); tickets without a seat last. */
export function bySeat(a: TicketSeat | null | undefined, b: TicketSeat | null | undefined): number {
  if (!a || !b) return (a ? 0 : 1) - (b ? 0 : 1);
  const number = (s: TicketSeat) => Number(s.number) || 0;
  return a.section.localeCompare(b.section) || a.row.localeCompare(b.row) || number(a) - number(b) || a.name.localeCompare(b.name);
}

/** The words of a seat's place: 'Orchestra', 'C', '7' (a seat without a number shows its name). */
export function seatPlace(seat: Pick<TicketSeat, 'name' | 'section' | 'row' | 'number'>) {
  return { section: seat.section, row: seat.row, number: seat.number ?? seat.name };
}

import type { SeatRow, SeatState } from '../contract/seating';

/** Reserved seating rules the storefront decides with (spec sections 4 and 9); no React, no I/O. */

/** Spec section 9: zoom 1 to 8, in x2, out x0.75, pan margin 50, open delay 50 ms. */
export const SEAT_MAP = { minZoom: 1, maxZoom: 8, zoomIn: 2, zoomOut: 0.75, panMargin: 50, openDelayMs: 50 } as const;

/** The 20-colour palette of seat groups (spec section 3): a group without its own colour takes one by its rank. */
export const SEAT_GROUP_PALETTE = [
  '#1f77b4',
  '#aec7e8',
  '#ff7f0e',
  '#ffbb78',
  '#2ca02c',
  '#98df8a',
  '#d62728',
  '#ff9896',
  '#9467bd',
  '#c5b0d5',
  '#8c564b',
  '#c49c94',
  '#e377c2',
  '#f7b6d2',
  '#7f7f7f',
  '#c7c7c7',
  '#bcbd22',
  '#dbdb8d',
  '#17becf',
  '#9edae5',
] as const;

export const groupColor = (color: string | null | undefined, index: number): string =>
  color && /^#[0-9a-fA-F]{6}$/.test(color) ? color : SEAT_GROUP_PALETTE[index % SEAT_GROUP_PALETTE.length];

export type Seat = SeatRow;

/** How the shopper's map shows a seat: chosen by them, or why it cannot be chosen. */
export function shownState(seat: Seat, chosen: boolean, wantedGroups: ReadonlySet<string>): SeatState {
  if (chosen) return 'selected';
  if (seat.state !== 'available') return seat.state;
  // A seat none of whose groups the shopper is buying (or can still buy) cannot be chosen now.
  return seat.ticket_groups.some((g) => wantedGroups.has(g)) ? 'available' : 'unavailable';
}

/**
 * The seats a party of `count` takes when the shopper picks `clicked` (spec section 4: when the party cannot sit
 * together at the clicked seat, neighbouring seats are tried): the free run of seats along the row (previous/next)
 * that holds the clicked seat, and in it the `count` seats starting at the clicked one, slid back toward its
 * previous seats when the row ends first. A run shorter than the party gives the whole run: the rest of the party
 * is seated by further picks. Empty when the clicked seat itself is not free.
 */
export function placeParty(seats: ReadonlyMap<string, Seat>, clicked: string, count: number, isFree: (seat: Seat) => boolean): string[] {
  const start = seats.get(clicked);
  if (!start || !isFree(start) || count <= 0) return [];
  const before: string[] = [];
  for (let s = seats.get(start.previous ?? ''); s && isFree(s) && before.length < count; s = seats.get(s.previous ?? '')) {
    before.unshift(s.seat_template_id);
  }
  const after: string[] = [];
  for (let s = seats.get(start.next ?? ''); s && isFree(s) && after.length < count; s = seats.get(s.next ?? '')) {
    after.push(s.seat_template_id);
  }
  const run = [...before, clicked, ...after];
  const at = before.length;
  const from = Math.max(0, Math.min(at, run.length - count));
  return run.slice(from, from + count);
}

export type SeatMove = 'left' | 'right' | 'up' | 'down' | 'home' | 'end';

/** Rows of a map as they are drawn: seats of one section and row, front to back, each left to right. */
export function rowsOf(seats: readonly Seat[]): Seat[][] {
  const rows = new Map<string, Seat[]>();
  for (const seat of seats) {
    const key = `${seat.section}\u0000${seat.row}`;
    rows.set(key, [...(rows.get(key) ?? []), seat]);
  }
  const meanY = (row: Seat[]) => row.reduce((s, x) => s + x.y, 0) / row.length;
  return [...rows.values()].map((row) => row.sort((a, b) => a.x - b.x)).sort((a, b) => meanY(a) - meanY(b) || a[0].x - b[0].x);
}

/**
 * Where an arrow key goes from a seat: left and right along its row, up and down to the nearest seat of the row in
 * front or behind, Home and End to the row's ends; the same seat at an edge.
 */
export function moveFrom(rows: readonly Seat[][], seatId: string, move: SeatMove): string {
  const r = rows.findIndex((row) => row.some((s) => s.seat_template_id === seatId));
  if (r < 0) return seatId;
  const row = rows[r];
  const i = row.findIndex((s) => s.seat_template_id === seatId);
  const seat = row[i];
  const nearest = (other: Seat[] | undefined) =>
    other ? other.reduce((best, s) => (Math.abs(s.x - seat.x) < Math.abs(best.x - seat.x) ? s : best)).seat_template_id : seatId;
  switch (move) {
    case 'left':
      return row[i - 1]?.seat_template_id ?? seatId;
    case 'right':
      return row[i + 1]?.seat_template_id ?? seatId;
    case 'home':
      return row[0].seat_template_id;
    case 'end':
      return row[row.length - 1].seat_template_id;
    case 'up':
      return nearest(rows[r - 1]);
    case 'down':
      return nearest(rows[r + 1]);
  }
}

/** Reading order of chosen seats: front to back, left to right. */
export function inSeatOrder(seats: Seat[]): Seat[] {
  return [...seats].sort((a, b) => a.y - b.y || a.x - b.x);
}

/**
 * The seat of each reservation line: a seated group's lines take its chosen seats in reading order, the others
 * none. Lines are left as they are when a group has fewer seats than lines (the server then asks for the seat).
 */
export function assignSeats<L extends { ticket_type_id: string }>(
  lines: L[],
  groupOfType: (typeId: string) => string | undefined,
  seatsOfGroup: (groupId: string) => string[],
): Array<L & { seat_id?: string }> {
  const next = new Map<string, number>();
  return lines.map((line) => {
    const group = groupOfType(line.ticket_type_id);
    const seats = group ? seatsOfGroup(group) : [];
    if (!group || seats.length === 0) return line;
    const i = next.get(group) ?? 0;
    next.set(group, i + 1);
    return i < seats.length ? { ...line, seat_id: seats[i] } : line;
  });
}

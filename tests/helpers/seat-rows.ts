import type { SeatRow } from '../../src/contract/seating';

/**
 * Seats of a map for store and rule tests: rows by label with their seat counts, front to back, seats 24 apart,
 * named and identified '{row}{n}', linked previous/next along the row; each later row is set back by half a seat per
 * seat fewer than the widest row, so shorter rows sit centred. All sold by `groups`.
 */
export function seatGrid(rows: Record<string, number>, groups: string[] = ['g'], section = 'Orchestra'): SeatRow[] {
  const widest = Math.max(...Object.values(rows));
  return Object.entries(rows).flatMap(([row, count], r) =>
    Array.from({ length: count }, (_, i) => ({
      seat_template_id: `${row}${i + 1}`,
      name: `${row}${i + 1}`,
      section,
      row,
      number: String(i + 1),
      x: 100 + ((widest - count) / 2) * 24 + i * 24,
      y: 100 + r * 26,
      r: 9,
      state: 'available' as const,
      previous: i > 0 ? `${row}${i}` : null,
      next: i < count - 1 ? `${row}${i + 2}` : null,
      ticket_groups: groups,
    })),
  );
}

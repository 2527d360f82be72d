import type { CatalogSeatMap } from './types';

export interface PlannedSeat {
  name: string;
  section: string;
  row_label: string;
  number: string;
  x: number;
  y: number;
  r: number;
  previous_seat: string | null;
  next_seat: string | null;
  ticket_group_keys: string[];
  unavailable: boolean;
}
export interface SectionGeometry {
  key: string;
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Expands a compact seat map (sections of rows x seats with an origin and spacing) into seats with centres,
 * radius and previous/next neighbours along the row, which is what seat selection walks to keep parties together.
 */
export function expandSeatMap(map: CatalogSeatMap): { seats: PlannedSeat[]; geometry: { sections: SectionGeometry[] } } {
  const seats: PlannedSeat[] = [];
  const sections: SectionGeometry[] = [];
  for (const s of map.sections) {
    const spacing = s.seat_spacing ?? 24;
    const rowSpacing = s.row_spacing ?? 26;
    const r = s.radius ?? 9;
    const unavailable = new Set(s.unavailable ?? []);
    let minX = Infinity;
    let maxX = -Infinity;
    s.rows.forEach((row, ri) => {
      const names = Array.from({ length: s.seats_per_row }, (_, i) => `${s.key}-${row}${i + 1}`);
      names.forEach((name, i) => {
        const x = round(s.origin.x + (s.row_offset ?? 0) * ri + i * spacing);
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        seats.push({
          name,
          section: s.name,
          row_label: row,
          number: String(i + 1),
          x,
          y: round(s.origin.y + ri * rowSpacing),
          r,
          previous_seat: i > 0 ? names[i - 1] : null,
          next_seat: i < names.length - 1 ? names[i + 1] : null,
          ticket_group_keys: s.ticket_groups ?? [],
          unavailable: unavailable.has(name),
        });
      });
    });
    sections.push({
      key: s.key,
      name: s.name,
      x: round(minX - r),
      y: round(s.origin.y - r),
      width: round(maxX - minX + 2 * r),
      height: round((s.rows.length - 1) * rowSpacing + 2 * r),
    });
  }
  return { seats, geometry: { sections } };
}

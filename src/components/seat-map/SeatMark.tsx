import type { SeatState } from '../../contract/seating';

/**
 * A seat as drawn: its state shows as a shape as well as a colour (WCAG 1.4.1): available is filled in its group's
 * colour, selected is dark with a tick, sold out is grey with a cross, unavailable is hollow with a dashed edge.
 * A ring around it shows keyboard focus.
 */
export function SeatMark({ r, state, color }: { r: number; state: SeatState; color?: string }) {
  const k = r * 0.5;
  return (
    <>
      <circle className="seat__focus" r={r + 5} />
      <circle className="seat__body" r={r} style={state === 'available' && color ? { fill: color } : undefined} />
      {state === 'selected' && <path className="seat__tick" d={`M ${-k} 0 L ${-k / 3} ${k * 0.7} L ${k} ${-k * 0.6}`} />}
      {state === 'booked' && <path className="seat__cross" d={`M ${-k} ${-k} L ${k} ${k} M ${k} ${-k} L ${-k} ${k}`} />}
    </>
  );
}

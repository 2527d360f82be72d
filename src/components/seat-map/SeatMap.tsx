import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, zoomTransform, type ZoomBehavior } from 'd3-zoom';
import type { SeatChoice } from '../../stores/reservation/SeatChoice';
import { moveFrom, SEAT_MAP, type Seat, type SeatMove } from '../../domain/seating';
import { seatPlace } from '../../domain/seat-place';
import { formatMoney } from '../../domain/pricing';
import { moneyToMinor } from '../../domain/quantity';
import { SeatMark } from './SeatMark';

const KEYS: Record<string, SeatMove> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Home: 'home',
  End: 'end',
};

/**
 * The seats over the seller's drawing, in an SVG that d3-zoom pans and zooms (buttons x2 and x0.75, wheel, pinch,
 * drag; scale 1 to 8, pan margin 50). Every seat is a button of the one composite: one seat is in the tab order
 * at a time, the arrow keys move along rows and between them, Enter or Space chooses; each seat says its place,
 * state and price, and its state is drawn as a mark as well as a colour.
 */
export const SeatMap = observer(function SeatMap({
  seats,
  currency,
  fitWanted,
}: {
  seats: SeatChoice;
  currency: string;
  fitWanted: boolean;
}) {
  const { t } = useTranslation();
  const instructionsId = useId();
  const svgRef = useRef<SVGSVGElement>(null);
  const layerRef = useRef<SVGGElement>(null);
  const behaviorRef = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const map = seats.map!.seatMap;
  const all = seats.map!.seats;
  const [focusId, setFocusId] = useState<string | null>(null);
  const current = focusId && seats.seatsById.has(focusId) ? focusId : firstSeat(seats);

  useEffect(() => {
    const svg = svgRef.current!;
    const m = SEAT_MAP.panMargin;
    const behavior = zoom<SVGSVGElement, unknown>()
      .scaleExtent([SEAT_MAP.minZoom, SEAT_MAP.maxZoom])
      .translateExtent([
        [-m, -m],
        [map.width + m, map.height + m],
      ])
      // A click that moved a few pixels still chooses; a longer movement is a drag.
      .clickDistance(4)
      .on('zoom', (event) => layerRef.current?.setAttribute('transform', event.transform.toString()));
    // Double-click would zoom and choose the seat twice; zooming has its buttons, the wheel and pinch.
    select(svg).call(behavior).on('dblclick.zoom', null);
    behaviorRef.current = behavior;
    // On a phone the whole theatre is small: start on the seats the shopper can choose, as large as they fit.
    const box = fitWanted ? boundsOf(seats.map!.seats.filter((s) => seats.stateOf(s) !== 'unavailable')) : null;
    if (box) {
      const k = Math.min(SEAT_MAP.maxZoom, Math.max(SEAT_MAP.minZoom, 0.9 * Math.min(map.width / box.width, map.height / box.height)));
      const start = zoomIdentity
        .translate(map.width / 2, map.height / 2)
        .scale(k)
        .translate(-(box.x + box.width / 2), -(box.y + box.height / 2));
      select(svg).call(behavior.transform, start);
    }
    return () => {
      select(svg).on('.zoom', null);
    };
    // The starting view is set once per map; later picks do not move it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map.width, map.height, fitWanted]);

  const zoomBy = (factor: number) => {
    if (behaviorRef.current && svgRef.current) select(svgRef.current).call(behaviorRef.current.scaleBy, factor);
  };

  /** Keeps a seat reached by keyboard in view when zoomed in. */
  const reveal = (seat: Seat) => {
    const svg = svgRef.current;
    const behavior = behaviorRef.current;
    if (!svg || !behavior) return;
    const [x, y] = zoomTransform(svg).apply([seat.x, seat.y]);
    if (x < seat.r || y < seat.r || x > map.width - seat.r || y > map.height - seat.r)
      select(svg).call(behavior.translateTo, seat.x, seat.y);
  };

  const seatOf = (target: EventTarget) => (target as Element).closest?.('[data-seat]')?.getAttribute('data-seat') ?? null;

  const handleClick = (event: MouseEvent<SVGSVGElement>) => {
    const id = seatOf(event.target);
    if (!id) return;
    setFocusId(id);
    seats.choose(id);
  };

  const handleKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const id = seatOf(event.target);
    if (!id) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      seats.choose(id);
      return;
    }
    const move = KEYS[event.key];
    if (!move) return;
    event.preventDefault();
    const next = moveFrom(seats.rows, id, move);
    setFocusId(next);
    const seat = seats.seatsById.get(next)!;
    reveal(seat);
    svgRef.current?.querySelector<SVGGElement>(`[data-seat="${next}"]`)?.focus();
  };

  const nameOf = (seat: Seat) => {
    const state = seats.stateOf(seat);
    const place = t('seats.label', seatPlace(seat));
    const price = state === 'available' || state === 'selected' ? seats.priceOf(seat) : null;
    const minor = moneyToMinor(price);
    return minor === null
      ? t('seats.seatName', { seat: place, state: t(`seats.state.${state}`) })
      : t('seats.seatNamePrice', { seat: place, state: t(`seats.state.${state}`), price: formatMoney(minor, currency) });
  };

  return (
    <div className="seat-map">
      <div className="seat-map__zoom">
        <button type="button" className="seat-map__zoom-button" aria-label={t('seats.zoomIn')} onClick={() => zoomBy(SEAT_MAP.zoomIn)}>
          <span aria-hidden="true">+</span>
        </button>
        <button type="button" className="seat-map__zoom-button" aria-label={t('seats.zoomOut')} onClick={() => zoomBy(SEAT_MAP.zoomOut)}>
          <span aria-hidden="true">−</span>
        </button>
      </div>
      <p id={instructionsId} className="visually-hidden">
        {t('seats.instructions')}
      </p>
      <svg
        ref={svgRef}
        className="seat-map__canvas"
        viewBox={`0 0 ${map.width} ${map.height}`}
        role="group"
        aria-label={t('seats.mapLabel')}
        aria-describedby={instructionsId}
        onClick={handleClick}
        onKeyDown={handleKeyDown}
      >
        <g ref={layerRef}>
          {/* The seller's drawing (stage, section names), sanitised to plain shapes and text when the folder is read. */}
          <g aria-hidden="true" dangerouslySetInnerHTML={{ __html: map.other_elements ?? '' }} />
          {all.map((seat) => {
            const state = seats.stateOf(seat);
            return (
              <g
                key={seat.seat_template_id}
                data-seat={seat.seat_template_id}
                className={`seat seat--${state}`}
                transform={`translate(${seat.x} ${seat.y})`}
                role="button"
                tabIndex={seat.seat_template_id === current ? 0 : -1}
                aria-label={nameOf(seat)}
                aria-pressed={state === 'selected'}
                aria-disabled={state === 'booked' || state === 'unavailable' || undefined}
              >
                <SeatMark r={seat.r} state={state} color={seats.needOf(seat)?.color} />
              </g>
            );
          })}
        </g>
      </svg>
    </div>
  );
});

/** Where the map's tab stop starts: the first chosen seat, else the first seat that can be chosen, else the first. */
function firstSeat(seats: SeatChoice): string | null {
  const chosen = seats.chosenSeats[0];
  if (chosen) return chosen.seat_template_id;
  const rows = seats.rows.flat();
  return (rows.find((s) => seats.stateOf(s) === 'available') ?? rows[0])?.seat_template_id ?? null;
}

/** The box around some seats (null for none). */
function boundsOf(list: Seat[]): { x: number; y: number; width: number; height: number } | null {
  if (list.length === 0) return null;
  const x0 = Math.min(...list.map((s) => s.x - s.r));
  const y0 = Math.min(...list.map((s) => s.y - s.r));
  const x1 = Math.max(...list.map((s) => s.x + s.r));
  const y1 = Math.max(...list.map((s) => s.y + s.r));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { BoolFlag, Json, Literals, NullableString, Query, Row, Uuid } from './primitives';
import { Table } from './tables';

/** Reserved seating (spec sections 3 and 7): a session's seat map and the state of each seat in it. */

/**
 * available: may be chosen; booked: held by a cart or sold; unavailable: never sold (the catalogue blocks it).
 * 'selected' is the storefront's own state for a seat the shopper has chosen; the API does not send it.
 */
export const SeatState = Literals('available', 'booked', 'selected', 'unavailable');
export type SeatState = Static<typeof SeatState>;

export const SeatMapRow = Row({
  id: Uuid,
  name: Type.String(),
  width: Type.Number(),
  height: Type.Number(),
  /** with `_withgeometry=true`: the sanitised SVG drawn behind the seats (stage, labels) */
  other_elements: Type.Optional(Type.String()),
  /** with `_withgeometry=true`: the sections' outlines ({ sections: [{ key, name, x, y, width, height }] }) */
  map_geometry: Type.Optional(Json),
});
export type SeatMapRow = Static<typeof SeatMapRow>;

export const SeatRow = Row({
  /** the seat's id: the `seat_id` of a reservation line and of a ticket */
  seat_template_id: Uuid,
  name: Type.String(),
  section: Type.String(),
  row: Type.String(),
  number: NullableString(),
  x: Type.Number(),
  y: Type.Number(),
  r: Type.Number(),
  state: SeatState,
  /** the seats beside it in its row (seat_template_id), which keep a party together */
  previous: NullableString(),
  next: NullableString(),
  /** the event's ticket groups that sell this seat */
  ticket_groups: Type.Array(Uuid),
});
export type SeatRow = Static<typeof SeatRow>;

export const SeatMapAnswer = Row({ seat_map: Table(SeatMapRow), seat: Table(SeatRow) });
export type SeatMapAnswer = Static<typeof SeatMapAnswer>;

/** A ticket's seat as carts, orders and tickets show it ('Orchestra row C seat 7'). */
export const TicketSeat = Row({ id: Uuid, name: Type.String(), section: Type.String(), row: Type.String(), number: NullableString() });
export type TicketSeat = Static<typeof TicketSeat>;

export const seatingRoutes = {
  seatMap: route({
    method: 'GET',
    url: '/events/:id/sessions/:sid/seat_map',
    schema: {
      summary: "A session's seat map and the live state of every seat (held by a current cart or sold: booked)",
      tags: ['catalogue'],
      params: Type.Object({ id: Uuid, sid: Uuid }),
      querystring: Query({ _withgeometry: BoolFlag }),
      response: answers(SeatMapAnswer),
    },
  }),
};

import { sql, type Insertable, type Transaction } from 'kysely';
import type { Db } from '../db';
import { LIVE_TICKET_STATES, type Database, type Seller, type TicketGroup, type TicketTable } from '../db/types';
import { table } from '../../src/contract/tables';
import type { SeatMapAnswer, SeatRow, TicketSeat } from '../../src/contract/seating';
import { DomainError, isUniqueViolation, notFound } from './errors';
import { eventNotFound } from './event-context';

type Trx = Transaction<Database>;

/**
 * Reserved seating. A seat is held by one cart at a time and sold once per session because of the unique index
 * `ticket_session_seat_uq` on ticket (event_session_id, seat_id) over the live states (in_cart, held, booked,
 * redeemed): the INSERT of a second live ticket for the seat fails whatever the interleaving, and a ticket leaving
 * those states (removed, cart deleted, hold expired, order cancelled) frees the seat with it. Nothing here reads
 * whether a seat is free before taking it: that read could be stale by the time of the write.
 */

type SeatTuple = [string, string, string, string, string | null, number, number, number, string | null, string | null, string[], boolean];

/**
 * GET events/{id}/sessions/{sid}/seat_map. Seats travel from the database as one JSON value (PGlite parses rows
 * one by one at ~45 µs each; a 1,000-seat map would spend 45 ms there). A seat is booked while a live ticket holds
 * it, except a hold of a pending cart whose time is up: that seat is free for the next reader, and the next
 * reserve releases the hold (cart/expiry.ts) before it takes the seat.
 */
export async function readSeatMap(
  db: Db,
  seller: Seller,
  eventId: string,
  sessionId: string,
  opts: { withGeometry: boolean },
  now: Date,
): Promise<SeatMapAnswer> {
  const event = await db
    .selectFrom('event_template')
    .select(['id', 'seat_map_id'])
    .where('id', '=', eventId)
    .where('seller_id', '=', seller.id)
    .where('hidden_type', '!=', 'hidden')
    .executeTakeFirst();
  if (!event) throw eventNotFound(eventId);
  const session = await db
    .selectFrom('event_session')
    .select('id')
    .where('id', '=', sessionId)
    .where('event_template_id', '=', eventId)
    .executeTakeFirst();
  if (!session) throw notFound('event_session', sessionId);
  if (!event.seat_map_id) throw notFound('seat_map');
  const seatMapId = event.seat_map_id;

  const [map, seatJson, groups, taken] = await Promise.all([
    db.selectFrom('seat_map').selectAll().where('id', '=', seatMapId).executeTakeFirstOrThrow(),
    db
      .selectFrom('seat')
      .select(
        sql<SeatTuple[]>`coalesce(json_agg(json_build_array(id, name, section, row_label, number, x, y, r, previous_seat, next_seat,
          ticket_group_keys, unavailable) order by y, x), '[]'::json)`.as('seats'),
      )
      .where('seat_map_id', '=', seatMapId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('ticket_group')
      .select(['id', 'key'])
      .where('event_template_id', '=', eventId)
      .where('handler', '=', 'seated')
      .where('hidden_type', '!=', 'hidden')
      .execute(),
    db
      .selectFrom('ticket as t')
      .leftJoin('cart as c', 'c.id', 't.cart_id')
      .select(sql<string[]>`coalesce(json_agg(t.seat_id), '[]'::json)`.as('ids'))
      .where('t.event_session_id', '=', sessionId)
      .where('t.seat_id', 'is not', null)
      .where('t.state', 'in', [...LIVE_TICKET_STATES])
      // A pending cart past its time no longer counts (nulls: a ticket without a cart, a cart without expiry).
      .where((eb) =>
        eb.or([eb('c.state', 'is', null), eb('c.state', '!=', 'pending'), eb('c.expires_at', 'is', null), eb('c.expires_at', '>', now)]),
      )
      .executeTakeFirstOrThrow(),
  ]);

  const seats = parseJson<SeatTuple[]>(seatJson.seats);
  const idByName = new Map(seats.map((s) => [s[1], s[0]]));
  const groupIdByKey = new Map(groups.map((g) => [g.key, g.id]));
  const booked = new Set(parseJson<string[]>(taken.ids));
  const rows: SeatRow[] = seats.map(([id, name, section, row, number, x, y, r, previous, next, keys, unavailable]) => ({
    seat_template_id: id,
    name,
    section,
    row,
    number,
    x,
    y,
    r,
    state: unavailable ? 'unavailable' : booked.has(id) ? 'booked' : 'available',
    previous: previous ? (idByName.get(previous) ?? null) : null,
    next: next ? (idByName.get(next) ?? null) : null,
    ticket_groups: keys.map((k) => groupIdByKey.get(k)).filter((g): g is string => !!g),
  }));
  return {
    seat_map: table([
      {
        id: map.id,
        name: map.name,
        width: map.width,
        height: map.height,
        ...(opts.withGeometry ? { other_elements: map.other_elements, map_geometry: map.map_geometry } : {}),
      },
    ]),
    seat: table(rows),
  };
}

// PGlite hands json back parsed, pg too; a driver that gives text is read here.
const parseJson = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

const refused = (code: 'seat_required' | 'seat_unavailable', description: string, extra: Record<string, unknown>) =>
  new DomainError(code, description, 'reserve', extra);

/**
 * The seats named by the lines to add (spec section 5, 'seat choice required for seated groups'): every ticket of a
 * seated group names a seat and a session, other tickets name none; a seat is on the event's map, sold by the
 * ticket's group, not blocked by the catalogue, and not named twice. Whether it is free is the unique index's call.
 */
export async function checkSeatChoices(trx: Trx, rows: Insertable<TicketTable>[], groups: Map<string, TicketGroup>): Promise<void> {
  rows.forEach((r, index) => {
    const group = groups.get(r.ticket_group_id)!;
    if (group.handler !== 'seated') {
      if (r.seat_id)
        throw new DomainError('validation_failed', 'This ticket type is not sold with seats.', 'reserve', {
          field: `add.${index}.seat_id`,
        });
      return;
    }
    if (!r.event_session_id) {
      throw new DomainError('validation_failed', 'A session is required for this ticket type.', 'reserve', {
        field: `add.${index}.event_session_id`,
      });
    }
    if (!r.seat_id) {
      throw refused('seat_required', 'Please choose a seat for each ticket.', { field: `add.${index}.seat_id`, ticket_group_id: group.id });
    }
  });
  const seated = rows.filter((r) => r.seat_id).map((r) => ({ ...r, seat_id: r.seat_id!.toLowerCase() }));
  if (seated.length === 0) return;
  const seatIds = seated.map((r) => r.seat_id);
  if (new Set(seatIds).size !== seatIds.length) {
    throw refused('seat_unavailable', 'The same seat was chosen twice.', { seat_ids: seatIds, reason: 'chosen_twice' });
  }
  const found = await trx
    .selectFrom('seat')
    .innerJoin('event_template', 'event_template.seat_map_id', 'seat.seat_map_id')
    .select(['seat.id as seat_id', 'event_template.id as event_template_id', 'seat.ticket_group_keys', 'seat.unavailable'])
    .where('seat.id', 'in', seatIds)
    .execute();
  for (const r of seated) {
    const seat = found.find((f) => f.seat_id === r.seat_id && f.event_template_id === r.event_template_id);
    const group = groups.get(r.ticket_group_id)!;
    const reason = !seat
      ? 'not_on_map'
      : seat.unavailable
        ? 'unavailable'
        : !seat.ticket_group_keys.includes(group.key)
          ? 'other_group'
          : null;
    if (reason) throw refused('seat_unavailable', 'The selected seat is not available.', { seat_ids: [r.seat_id], reason });
  }
}

/** Whether a database error is the seat index refusing a second live ticket for a seat. */
export const isSeatConflict = (err: unknown) => isUniqueViolation(err, 'ticket_session_seat_uq');

/**
 * The refusal for a seat someone else took between the shopper's look at the map and the reserve (or a late
 * payment), naming the seats now taken so the storefront can say which were lost; null for any other error.
 */
export async function seatTakenError(
  db: Db,
  err: unknown,
  wanted: Array<{ event_session_id?: string | null; seat_id?: string | null }>,
  context = 'reserve',
): Promise<DomainError | null> {
  if (!isSeatConflict(err)) return null;
  const pairs = wanted.filter((w) => w.event_session_id && w.seat_id).map((w) => [w.event_session_id!, w.seat_id!.toLowerCase()] as const);
  const taken = pairs.length
    ? await db
        .selectFrom('ticket')
        .select('seat_id')
        .where('state', 'in', [...LIVE_TICKET_STATES])
        .where((eb) =>
          eb.or(pairs.map(([sessionId, seatId]) => eb.and([eb('event_session_id', '=', sessionId), eb('seat_id', '=', seatId)]))),
        )
        .execute()
    : [];
  const seatIds = taken.length ? [...new Set(taken.map((t) => t.seat_id!))] : pairs.map(([, seatId]) => seatId);
  return new DomainError('seat_unavailable', 'The selected seat is no longer available.', context, { seat_ids: seatIds, reason: 'taken' });
}

/** seatTakenError for a cart whose own tickets (a late payment bringing back released holds) met a taken seat. */
export async function seatTakenInCart(db: Db, err: unknown, cartId: string): Promise<DomainError | null> {
  if (!isSeatConflict(err)) return null;
  const tickets = await db
    .selectFrom('ticket')
    .select(['event_session_id', 'seat_id'])
    .where('cart_id', '=', cartId)
    .where('seat_id', 'is not', null)
    .execute();
  return seatTakenError(db, err, tickets, 'checkout');
}

/** Seats of tickets, for the wire (cart, order, my tickets): by id. */
export async function seatsById(db: Db, seatIds: string[]): Promise<Map<string, TicketSeat>> {
  const ids = [...new Set(seatIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('seat').select(['id', 'name', 'section', 'row_label', 'number']).where('id', 'in', ids).execute();
  return new Map(rows.map((s) => [s.id, { id: s.id, name: s.name, section: s.section, row: s.row_label, number: s.number }]));
}

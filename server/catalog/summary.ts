import type { Db } from '../db';

/** Row counts of one seller, for the CLI summary and tests. */
export async function sellerCounts(db: Db, sellerId: string) {
  const count = async (q: { executeTakeFirstOrThrow(): Promise<{ n: string | number | bigint }> }) =>
    Number((await q.executeTakeFirstOrThrow()).n);
  const bySeller = (
    table:
      | 'event_template'
      | 'ticket_group'
      | 'ticket_type'
      | 'event_session'
      | 'image'
      | 'venue'
      | 'seat_map'
      | 'role'
      | 'membership'
      | 'promo_code'
      | 'ledger'
      | 'app_user'
      | 'cart_mod',
  ) =>
    count(
      db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('seller_id', '=', sellerId),
    );
  return {
    events: await bySeller('event_template'),
    ticket_groups: await bySeller('ticket_group'),
    ticket_types: await bySeller('ticket_type'),
    sessions: await bySeller('event_session'),
    session_ticket_groups: await count(
      db
        .selectFrom('session_ticket_group')
        .innerJoin('event_session', 'event_session.id', 'session_ticket_group.event_session_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('event_session.seller_id', '=', sellerId),
    ),
    venues: await bySeller('venue'),
    images: await bySeller('image'),
    seat_maps: await bySeller('seat_map'),
    seats: await count(
      db
        .selectFrom('seat')
        .innerJoin('seat_map', 'seat_map.id', 'seat.seat_map_id')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('seat_map.seller_id', '=', sellerId),
    ),
    membership_levels: await bySeller('role'),
    memberships: await bySeller('membership'),
    cart_mods: await bySeller('cart_mod'),
    promo_codes: await bySeller('promo_code'),
    gift_cards: await bySeller('ledger'),
    users: await bySeller('app_user'),
  };
}

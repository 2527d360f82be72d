import { sql, type Transaction } from 'kysely';
import type { Database, Seller } from '../../db/types';
import type { CartVisit } from '../../../src/domain/upsell';

type Trx = Transaction<Database>;

/**
 * What a cart holds now, by event and session (its in_cart tickets counted), with what the visit rules read: the event's
 * category, config and meta, the session's times and the venue's timezone. Read once in the reserve transaction, after
 * the change's rows are in, for conflict avoidance (conflicts.ts) and the anchor rules (anchors.ts).
 */
export async function cartVisitRows(trx: Trx, seller: Seller, cartId: string): Promise<CartVisit[]> {
  const rows = await trx
    .selectFrom('ticket')
    .innerJoin('event_template as e', 'e.id', 'ticket.event_template_id')
    .leftJoin('event_session as s', 's.id', 'ticket.event_session_id')
    .leftJoin('venue as v', 'v.id', 'e.venue_id')
    .select([
      'e.id as event_id',
      'e.category',
      'e.config',
      'e.meta',
      's.id as session_id',
      's.start_datetime',
      's.end_datetime',
      'v.timezone',
      sql<number>`count(*)::int`.as('n'),
    ])
    .where('ticket.cart_id', '=', cartId)
    .where('ticket.state', '=', 'in_cart')
    // grouped by the keys: the other columns follow from them
    .groupBy(['e.id', 's.id', 'v.id'])
    .orderBy('s.start_datetime')
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({
    eventId: r.event_id,
    category: r.category,
    config: r.config,
    meta: r.meta,
    sessionId: r.session_id,
    start: r.start_datetime,
    end: r.end_datetime,
    timezone: r.timezone ?? seller.timezone,
    count: r.n,
  }));
}

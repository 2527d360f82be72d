import type { Db } from '../../server/db';

/**
 * A small seller of its own for the cart and checkout tests (independent of the demo seller): one
 * timed event with sessions of capacity 20, priced types with outside fees, a group with min 2 / max 4,
 * a flexible-price donation, a members-only group and a group with survey questions.
 */
export interface CartFixture {
  sellerId: string;
  slug: string;
  eventId: string;
  publicIdentityId: string | null;
  sessionId: string;
  otherSessionId: string;
  pastSessionId: string;
  groups: { general: string; family: string; donation: string; members: string; survey: string };
  types: { adult: string; child: string; infant: string; family: string; donation: string; member: string; surveyed: string };
}

export const PRICES = { adult: 2500, adultFee: 150, child: 1500, childFeePercent: 10, family: 1000 };

let sessionSerial = 0;
export async function addSession(
  db: Db,
  f: Pick<CartFixture, 'sellerId' | 'eventId'>,
  opts: { capacity?: number; startInHours?: number; from?: Date } = {},
) {
  const start = new Date((opts.from ?? new Date()).getTime() + (opts.startInHours ?? 24) * 3600_000 + ++sessionSerial * 1000);
  const row = await db
    .insertInto('event_session')
    .values({
      seller_id: f.sellerId,
      event_template_id: f.eventId,
      start_datetime: start,
      end_datetime: new Date(start.getTime() + 3600_000),
      capacity: opts.capacity ?? 20,
      annotations: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertCartFixture(
  db: Db,
  opts: { slug?: string; holdSeconds?: number; now?: Date; limits?: Record<string, number> } = {},
): Promise<CartFixture> {
  const slug = opts.slug ?? 'cartshop';
  const seller = await db
    .insertInto('seller')
    .values({
      slug,
      name: 'Cart Test Museum',
      currency: 'USD',
      timezone: 'America/New_York',
      config: JSON.stringify({ cart: { hold_seconds: opts.holdSeconds ?? 900, ...(opts.limits ? { limits: opts.limits } : {}) } }),
      strings: '{}',
      content_blocks: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const venue = await db
    .insertInto('venue')
    .values({ seller_id: seller.id, key: 'main', name: 'Main Hall', timezone: 'America/New_York', address: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const event = await db
    .insertInto('event_template')
    .values({
      seller_id: seller.id,
      key: 'admission',
      venue_id: venue.id,
      name: 'General Admission',
      event_type: 'repeating',
      config: '{}',
      meta: '{}',
      metadata: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const group = async (key: string, extra: Record<string, unknown> = {}) =>
    (
      await db
        .insertInto('ticket_group')
        .values({
          seller_id: seller.id,
          event_template_id: event.id,
          key,
          name: key[0].toUpperCase() + key.slice(1),
          handler: 'tickets',
          meta: '{}',
          config: '{}',
          ...extra,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const groups = {
    general: await group('general'),
    family: await group('family', { min_tickets_per_order: 2, max_tickets_per_order: 4 }),
    donation: await group('donation', { handler: 'donation', flexible: true }),
    members: await group('members', { hidden_type: 'public_member_only' }),
    survey: await group('survey', {
      additional_info_spec: JSON.stringify({
        properties: { visit_reason: { type: 'string', enum: ['art', 'history'] }, age: { type: 'integer', minimum: 0, maximum: 120 } },
        required: ['visit_reason'],
      }),
    }),
  };
  const type = async (groupId: string, key: string, price: number, extra: Record<string, unknown> = {}) =>
    (
      await db
        .insertInto('ticket_type')
        .values({
          seller_id: seller.id,
          ticket_group_id: groupId,
          key,
          name: key[0].toUpperCase() + key.slice(1),
          price,
          outside_fees: '[]',
          meta: '{}',
          ...extra,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const types = {
    adult: await type(groups.general, 'adult', PRICES.adult, {
      outside_fees: JSON.stringify([{ name: 'Service fee', fixed: PRICES.adultFee }]),
    }),
    child: await type(groups.general, 'child', PRICES.child, {
      outside_fees: JSON.stringify([{ name: 'Facility fee', percent: PRICES.childFeePercent }]),
    }),
    infant: await type(groups.general, 'infant', 0),
    family: await type(groups.family, 'family', PRICES.family),
    donation: await type(groups.donation, 'donation', 0, { price_min: 100, price_max: 100000 }),
    member: await type(groups.members, 'member', 0),
    surveyed: await type(groups.survey, 'tour', 500),
  };
  const base = { sellerId: seller.id, eventId: event.id };
  const now = opts.now ?? new Date();
  return {
    ...base,
    slug,
    publicIdentityId: null,
    groups,
    types,
    sessionId: await addSession(db, base, { from: now }),
    otherSessionId: await addSession(db, base, { from: now, startInHours: 48 }),
    pastSessionId: await addSession(db, base, { from: now, startInHours: -2 }),
  };
}

import { createHash } from 'node:crypto';
import type { Db, DbKind } from '../../server/db';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Insertable } from 'kysely';
import type { EventSessionTable, TicketGroupTable, TicketTypeTable } from '../../server/db/types';

/**
 * A small seller written straight into the database for precise edge cases: a capacity-2 session, a sold-out
 * session, a past one, a cancelled one, a session whose group is full, a hold of an expired cart, members-only,
 * link-only and hidden events, a sessionless donation event, and another seller's event.
 * Times: the venue is in America/New_York (UTC-4 from 2026-03-08); FIXTURE_NOW is Tuesday 2026-03-10 12:00 there.
 */
export const FIXTURE_NOW = new Date('2026-03-10T16:00:00Z');
export const FIXTURE_TZ = 'America/New_York';
export const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';

/** A venue-local wall time in March 2026 (EDT, UTC-4) as an instant. */
export const edt = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 2, day, hour + 4, minute));

export interface Fixture {
  sellerId: string;
  sellerSlug: string;
  otherSellerId: string;
  venueId: string;
  imageId: string;
  events: {
    timed: string;
    exhibition: string;
    members: string;
    link: string;
    hidden: string;
    donation: string;
    pastOnly: string;
    other: string;
  };
  groups: { general: string; member: string; flexible: string; donation: string; otherGeneral: string; hiddenGroup: string };
  types: {
    adult: string;
    child: string;
    senior: string;
    member: string;
    flex: string;
    donation: string;
    other: string;
    exhibition: string;
  };
  sessions: {
    past: string;
    s1: string;
    soldOut: string;
    later: string;
    cancelled: string;
    groupFull: string;
    expiredHold: string;
    exhibition: string;
    other: string;
  };
}

export async function insertFixtures(db: Db): Promise<Fixture> {
  const seller = await db
    .insertInto('seller')
    .values({
      slug: 'fixture',
      name: 'Fixture Museum',
      currency: 'USD',
      timezone: FIXTURE_TZ,
      config: JSON.stringify({ locale: 'en-US', web: { show_remaining_session_capacity_threshold: 10 } }),
      strings: JSON.stringify({ 'events.title': 'Pick an event' }),
      content_blocks: JSON.stringify([
        { name: 'events-welcome', slot: 'top', routes: ['events'], roles: ['anonymous'], order: 0, html: '<p>Hi</p>' },
      ]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const other = await db
    .insertInto('seller')
    .values({ slug: 'other', name: 'Other Museum', timezone: 'Europe/London', config: '{}', strings: '{}', content_blocks: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sellerId = seller.id;
  const venue = await db
    .insertInto('venue')
    .values({ seller_id: sellerId, key: 'main', name: 'Main Building', timezone: FIXTURE_TZ, address: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const otherVenue = await db
    .insertInto('venue')
    .values({ seller_id: other.id, key: 'main', name: 'London House', timezone: 'Europe/London', address: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const image = await db
    .insertInto('image')
    .values({
      seller_id: sellerId,
      key: 'logo',
      content_type: 'image/svg+xml',
      data: Buffer.from(SVG),
      sha256: createHash('sha256').update(SVG).digest('hex'),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const event = async (sid: string, vid: string, key: string, values: Record<string, unknown>) =>
    (
      await db
        .insertInto('event_template')
        .values({
          seller_id: sid,
          venue_id: vid,
          key,
          name: key,
          event_type: 'single',
          config: '{}',
          meta: '{}',
          metadata: '{}',
          ...values,
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const group = async (eventId: string, sid: string, key: string, values: Partial<Insertable<TicketGroupTable>>) =>
    (
      await db
        .insertInto('ticket_group')
        .values({
          seller_id: sid,
          event_template_id: eventId,
          key,
          name: key,
          handler: 'tickets',
          meta: '{}',
          config: '{}',
          ...values,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const type = async (groupId: string, sid: string, key: string, values: Partial<Insertable<TicketTypeTable>>) =>
    (
      await db
        .insertInto('ticket_type')
        .values({
          seller_id: sid,
          ticket_group_id: groupId,
          key,
          name: key,
          price: 0,
          outside_fees: '[]',
          meta: '{}',
          ...values,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const session = async (eventId: string, sid: string, start: Date, values: Partial<Insertable<EventSessionTable>> = {}) =>
    (
      await db
        .insertInto('event_session')
        .values({
          seller_id: sid,
          event_template_id: eventId,
          start_datetime: start,
          end_datetime: new Date(start.getTime() + 3_600_000),
          annotations: '[]',
          ...values,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const stg = (event_session_id: string, ticket_group_id: string, capacity: number, used_capacity: number) =>
    db.insertInto('session_ticket_group').values({ event_session_id, ticket_group_id, capacity, used_capacity }).execute();

  const timed = await event(sellerId, venue.id, 'Timed Admission', {
    category: 'admission',
    event_type: 'repeating',
    _rank: 1,
    metadata: JSON.stringify({ audience: 'family' }),
    config: JSON.stringify({ web: { price_display: { prefix: 'From' } } }),
    meta: JSON.stringify({ image_profile: image.id }),
  });
  const general = await group(timed, sellerId, 'General', { capacity: 5, max_tickets_per_order: 4, _rank: 1 });
  const member = await group(timed, sellerId, 'Members', { hidden_type: 'public_member_only', _rank: 2 });
  const flexible = await group(timed, sellerId, 'Any Day', { handler: 'passes', flexible: true, capacity: 5, used_capacity: 1, _rank: 3 });
  const hiddenGroup = await group(timed, sellerId, 'Staff', { hidden_type: 'hidden', _rank: 4 });
  const adult = await type(general, sellerId, 'Adult', {
    price: 2500,
    _rank: 1,
    outside_fees: JSON.stringify([{ name: 'Service fee', fixed: 150 }]),
  });
  const child = await type(general, sellerId, 'Child', {
    price: 1500,
    _rank: 2,
    outside_fees: JSON.stringify([{ name: 'Service fee', percent: 10 }]),
  });
  const senior = await type(general, sellerId, 'Senior', { price: 2000, discounted_price: 1800, _rank: 3 });
  const memberType = await type(member, sellerId, 'Member', { price: 0, member_only: true });
  const flex = await type(flexible, sellerId, 'Any Day Adult', { price: 3000 });
  await type(hiddenGroup, sellerId, 'Staff Pass', { price: 0 });
  await db
    .insertInto('message_rule')
    .values([
      {
        event_template_id: timed,
        _rank: 0,
        triggers: JSON.stringify({ dateOrSession: { weekdays: [3] } }),
        actions: JSON.stringify({ date_annotation: 'Late opening', date_message: 'Open until 9 pm on Wednesdays' }),
      },
      {
        event_template_id: timed,
        _rank: 1,
        triggers: JSON.stringify([{ type: 'dateOrSession', time_of_day: { start: '10:00', end: '11:00' } }]),
        actions: JSON.stringify([{ type: 'session_annotation', text: 'Quiet hour' }]),
      },
    ])
    .execute();

  const past = await session(timed, sellerId, edt(9, 10), { capacity: 2 });
  const s1 = await session(timed, sellerId, edt(11, 10), { capacity: 2 });
  const soldOut = await session(timed, sellerId, edt(11, 11), { capacity: 2, used_capacity: 2 });
  const later = await session(timed, sellerId, edt(12, 14), { capacity: -1, price_increase: 500 });
  const cancelled = await session(timed, sellerId, edt(12, 15), { capacity: 10, state: 'cancelled' });
  const groupFull = await session(timed, sellerId, edt(13, 10), {
    capacity: 10,
    used_capacity: 3,
    annotations: JSON.stringify(['Last entry 4 pm']),
  });
  const expiredHold = await session(timed, sellerId, edt(14, 10), { capacity: 1, used_capacity: 1 });
  await stg(s1, general, 5, 0);
  await stg(soldOut, general, 5, 2);
  await stg(groupFull, general, 3, 3);
  await stg(expiredHold, general, 5, 1);

  // The only ticket of the 14th sits in a cart that expired: reads must treat it as released.
  const identity = await db
    .insertInto('identity')
    .values({ seller_id: sellerId, additional_info: '{}', meta: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cart = await db
    .insertInto('cart')
    .values({ seller_id: sellerId, identity_id: identity.id, additional_info: '{}', expires_at: new Date(FIXTURE_NOW.getTime() - 60_000) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('ticket')
    .values({
      seller_id: sellerId,
      cart_id: cart.id,
      event_template_id: timed,
      event_session_id: expiredHold,
      ticket_group_id: general,
      ticket_type_id: adult,
      state: 'in_cart',
      handler: 'tickets',
      face_value: 2500,
      adjusted_value: 2500,
      additional_info: '{}',
      handler_data: '{}',
    })
    .execute();

  const exhibition = await event(sellerId, venue.id, 'Sculpture Garden', { category: 'exhibition', _rank: 2 });
  const exGroup = await group(exhibition, sellerId, 'Entry', {});
  const exhibitionType = await type(exGroup, sellerId, 'Entry', { price: 1000 });
  const exhibitionSession = await session(exhibition, sellerId, edt(20, 18));

  const members = await event(sellerId, venue.id, 'Members Morning', {
    category: 'admission',
    hidden_type: 'public_member_only',
    _rank: 3,
  });
  const mg = await group(members, sellerId, 'Members', { hidden_type: 'public_member_only' });
  await type(mg, sellerId, 'Member', { price: 0, member_only: true });
  await session(members, sellerId, edt(11, 9));

  const link = await event(sellerId, venue.id, 'Private Tour', { category: 'tour', hidden_type: 'public_link_only', _rank: 4 });
  await type(await group(link, sellerId, 'Tour', {}), sellerId, 'Tour', { price: 5000 });
  await session(link, sellerId, edt(12, 9));

  const hidden = await event(sellerId, venue.id, 'Staff Party', { category: 'internal', hidden_type: 'hidden', _rank: 5 });
  await session(hidden, sellerId, edt(12, 20));

  const donation = await event(sellerId, venue.id, 'Donate', { category: 'donation', event_type: 'other', _rank: 6 });
  const donationGroup = await group(donation, sellerId, 'Donation', { handler: 'donation' });
  const donationType = await type(donationGroup, sellerId, 'Gift', { price: 0, price_min: 500, price_max: 100000 });

  const pastOnly = await event(sellerId, venue.id, 'Old Lecture', { category: 'talk', _rank: 7 });
  await type(await group(pastOnly, sellerId, 'Seats', {}), sellerId, 'Seat', { price: 800 });
  await session(pastOnly, sellerId, edt(1, 18));

  const otherEvent = await event(other.id, otherVenue.id, 'Elsewhere', { category: 'admission' });
  const otherGeneral = await group(otherEvent, other.id, 'General', {});
  const otherType = await type(otherGeneral, other.id, 'Adult', { price: 900 });
  const otherSession = await session(otherEvent, other.id, edt(11, 14));

  return {
    sellerId,
    sellerSlug: 'fixture',
    otherSellerId: other.id,
    venueId: venue.id,
    imageId: image.id,
    events: { timed, exhibition, members, link, hidden, donation, pastOnly, other: otherEvent },
    groups: { general, member, flexible, donation: donationGroup, otherGeneral, hiddenGroup },
    types: { adult, child, senior, member: memberType, flex, donation: donationType, other: otherType, exhibition: exhibitionType },
    sessions: { past, s1, soldOut, later, cancelled, groupFull, expiredHold, exhibition: exhibitionSession, other: otherSession },
  };
}

/** The API over a database, with the fixture seller as default and a fixed clock. */
export async function fixtureApp(db: Db, dbKind: DbKind, now: Date = FIXTURE_NOW) {
  return buildApp({
    db,
    dbKind,
    config: readConfig({ DEFAULT_SELLER: 'fixture', STATIC_DIR: '/nonexistent-static', READ_CACHE_MS: '0' }),
    now: () => now,
  });
}

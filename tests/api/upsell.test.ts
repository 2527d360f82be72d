import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { loadDemo, nextIp } from '../helpers/auth';

const SELLER = '_seller=demo';

/**
 * The anchor rules of upsell chains on the server (issue 16): the demo's Ocean Light is sold only after General
 * Admission (catalogue `upsell.requires_anchor`, anchor_events general-admission) and with as many tickets as the
 * admission holds (meta tickets_must_match_anchor_tickets); the seller's visit_time is same_date. Admission sessions
 * start every 30 minutes from 9:00 (30 minutes long), Ocean Light every hour from 10:00 (45 minutes), venue time.
 */
describeEachDatabase('upsell anchors (issue 16)', (ctx) => {
  let app: FastifyInstance;
  const clock = testClock(new Date('2026-05-04T12:00:00Z'));
  const db = () => ctx().db;
  let sellerId: string;
  let types: { adult: string; child: string; ocean: string; giftCard: string };
  let admission: Array<{ id: string; start: Date }>;
  let ocean: Array<{ id: string; start: Date }>;
  let oceanEventId: string;

  async function typeOf(event: string, group: string, type: string) {
    const row = await db()
      .selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
      .select(['ticket_type.id', 'event_template.id as event_id'])
      .where('event_template.seller_id', '=', sellerId)
      .where('event_template.key', '=', event)
      .where('ticket_group.key', '=', group)
      .where('ticket_type.key', '=', type)
      .executeTakeFirstOrThrow();
    return row;
  }
  async function sessionsOf(eventId: string) {
    const rows = await db()
      .selectFrom('event_session')
      .select(['id', 'start_datetime'])
      .where('event_template_id', '=', eventId)
      .where('start_datetime', '>', new Date('2026-05-05T00:00:00Z'))
      .where('start_datetime', '<', new Date('2026-05-07T00:00:00Z'))
      .orderBy('start_datetime')
      .execute();
    return rows.map((r) => ({ id: r.id, start: new Date(r.start_datetime) }));
  }
  /** The session of `list` starting at `hhmm` venue time (New York, UTC-4 in May) on 5 May, or on 6 May. */
  const at = (list: Array<{ id: string; start: Date }>, hhmm: string, day = 5) => {
    const [h, m] = hhmm.split(':').map(Number);
    const instant = Date.UTC(2026, 4, day, h + 4, m);
    const found = list.find((s) => s.start.getTime() === instant);
    expect(found, `a session at ${hhmm} on May ${day}`).toBeTruthy();
    return found!.id;
  };
  const line = (ticket_type_id: string, event_session_id?: string) => ({
    ticket_type_id,
    ...(event_session_id ? { event_session_id } : {}),
  });
  const lines = (n: number, typeId: string, sessionId: string) => Array.from({ length: n }, () => line(typeId, sessionId));
  const visitor = () => new Browser(app, nextIp());

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    app = await buildTestApp(testDeps(ctx(), clock.now));
    const adult = await typeOf('general-admission', 'general', 'adult');
    const child = await typeOf('general-admission', 'general', 'child');
    const oceanAdult = await typeOf('ocean-light', 'exhibition', 'adult');
    const giftCard = await typeOf('gift-card', 'giftcard', 'gc25');
    types = { adult: adult.id, child: child.id, ocean: oceanAdult.id, giftCard: giftCard.id };
    oceanEventId = oceanAdult.event_id;
    admission = await sessionsOf(adult.event_id);
    ocean = await sessionsOf(oceanEventId);
  });
  afterAll(async () => {
    await app?.close();
  });

  const refusal = (res: { status: number; body: { _data?: Array<{ _code: string; _extra?: Record<string, unknown> }> } }) => ({
    status: res.status,
    ...res.body._data?.[0],
  });
  const oceanHeld = async (sessionId: string) =>
    (
      await db()
        .selectFrom('ticket')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('event_session_id', '=', sessionId)
        .where('state', '=', 'in_cart')
        .executeTakeFirstOrThrow()
    ).n;

  it('an add-on alone is refused with anchor_required (a new visitor too: the one-statement path leaves it to the locked one)', async () => {
    const session = at(ocean, '11:00');
    const res = await visitor().post(`/api/cart/modify?${SELLER}`, { add: [line(types.ocean, session)] });
    expect(refusal(res)).toMatchObject({
      status: 409,
      _code: 'anchor_required',
      _extra: { event_template_id: oceanEventId, event_session_id: session, visit_time: 'same_date' },
    });
    expect(await oceanHeld(session)).toBe(0);
    const capacity = await db().selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow();
    expect(capacity.used_capacity).toBe(0);
  });

  it('with its admission, as many tickets as the admission holds: taken; fewer or more: tickets_must_match_anchor_tickets', async () => {
    const [a, o] = [at(admission, '10:00'), at(ocean, '11:00')];
    const ok = await visitor().post(`/api/cart/modify?${SELLER}`, {
      add: [line(types.adult, a), line(types.child, a), ...lines(2, types.ocean, o)],
    });
    expect(ok.status).toBe(200);
    const items = ok.body.cart._data[0].items as Array<{ event_template_id: string; isAnchor: boolean; isDependency: boolean }>;
    // the admission is the anchor Ocean Light depends on: removing it clears the cart (spec section 4)
    const flags = Object.fromEntries(
      items.map((i) => [i.event_template_id === oceanEventId ? 'ocean' : 'admission', [i.isAnchor, i.isDependency]]),
    );
    expect(flags).toEqual({ admission: [true, true], ocean: [false, false] });

    const fewer = await visitor().post(`/api/cart/modify?${SELLER}`, {
      add: [line(types.adult, a), line(types.child, a), line(types.ocean, o)],
    });
    expect(refusal(fewer)).toMatchObject({
      status: 409,
      _code: 'tickets_must_match_anchor_tickets',
      _extra: { event_template_id: oceanEventId, count: 1, anchor_counts: [2] },
    });

    // in steps: admission first, then Ocean Light; one more Ocean ticket alone breaks the match, with one more admission it holds
    const b = visitor();
    const first = await b.post(`/api/cart/modify?${SELLER}`, { add: lines(2, types.adult, a) });
    const cartId = first.body.cart._data[0].id;
    expect((await b.post(`/api/cart/${cartId}/modify?${SELLER}`, { add: lines(2, types.ocean, o) })).status).toBe(200);
    const more = await b.post(`/api/cart/${cartId}/modify?${SELLER}`, { add: [line(types.ocean, o)] });
    expect(refusal(more)).toMatchObject({ status: 409, _code: 'tickets_must_match_anchor_tickets', _extra: { count: 3 } });
    const both = await b.post(`/api/cart/${cartId}/modify?${SELLER}`, { add: [line(types.ocean, o), line(types.adult, a)] });
    expect(both.status).toBe(200);
    expect(both.body.ticket._count).toBe(6);
  });

  it('the admission cannot be removed from under its add-on; deleting the whole cart can', async () => {
    const [a, o] = [at(admission, '10:00'), at(ocean, '12:00')];
    const b = visitor();
    const res = await b.post(`/api/cart/modify?${SELLER}`, { add: [line(types.adult, a), line(types.ocean, o)] });
    const cart = res.body.cart._data[0];
    const admissionTickets = cart.items.find((i: { isAnchor: boolean }) => i.isAnchor).ticketIds as string[];
    const removed = await b.post(`/api/cart/${cart.id}/modify?${SELLER}`, { remove: admissionTickets });
    expect(refusal(removed)).toMatchObject({ status: 409, _code: 'anchor_required' });
    const after = await b.get(`/api/cart/${cart.id}?${SELLER}`);
    expect(after.body.ticket._count).toBe(2);
    expect((await b.delete(`/api/cart/${cart.id}?${SELLER}`)).status).toBe(200);
    expect(await oceanHeld(o)).toBe(0);
  });

  it('same_date: an add-on on another day than its admission is refused; another anchor-less item is no dependency', async () => {
    const refused = await visitor().post(`/api/cart/modify?${SELLER}`, {
      add: [line(types.adult, at(admission, '10:00')), line(types.ocean, at(ocean, '11:00', 6))],
    });
    expect(refusal(refused)).toMatchObject({ status: 409, _code: 'anchor_required', _extra: { visit_time: 'same_date' } });
    // a gift card does not follow the admission: the admission is no dependency and may go alone
    const withCard = await visitor().post(`/api/cart/modify?${SELLER}`, {
      add: [line(types.adult, at(admission, '10:00')), line(types.giftCard)],
    });
    expect(withCard.status).toBe(200);
    expect(withCard.body.cart._data[0].items.map((i: { isDependency: boolean }) => i.isDependency)).toEqual([false, false]);
  });

  describe('visit_time', () => {
    const setVisitTime = async (value: string | null) => {
      await db()
        .updateTable('seller')
        .set({
          config: value
            ? sql`jsonb_set(config, '{upsells,visit_time}', ${JSON.stringify(value)}::jsonb)`
            : sql`jsonb_set(config, '{upsells,visit_time}', '"same_date"'::jsonb)`,
        })
        .where('id', '=', sellerId)
        .execute();
    };
    afterEach(() => setVisitTime(null));

    /** Admission at `entry`, Ocean Light at `show`: the status of putting both in one new cart. */
    const pair = async (entry: string, show: string) =>
      (
        await visitor().post(`/api/cart/modify?${SELLER}`, {
          add: [line(types.adult, at(admission, entry)), line(types.ocean, at(ocean, show))],
        })
      ).status;

    it('timeslot: within the admission slot; same_start: within a minute of its start; until_close: from its start on that day', async () => {
      await setVisitTime('timeslot');
      expect(await pair('11:00', '11:00')).toBe(200);
      expect(await pair('10:30', '11:00')).toBe(409); // the 10:30 slot ends at 11:00
      expect(await pair('11:00', '12:00')).toBe(409);
      await setVisitTime('same_start');
      expect(await pair('11:00', '11:00')).toBe(200);
      expect(await pair('10:30', '11:00')).toBe(409);
      await setVisitTime('until_close');
      expect(await pair('10:30', '16:00')).toBe(200);
      expect(await pair('11:30', '11:00')).toBe(409);
    });
  });
});

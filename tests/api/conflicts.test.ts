import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { dropAnchorRules, loadDemo } from '../helpers/auth';

const SELLER = '_seller=demo';

/**
 * Conflict avoidance on the server (issue 16): the demo seller has it on (5 minutes before and after, admission and
 * the like excluded). Ocean Light runs hourly for 45 minutes, the gallery talk daily at 13:00 for 30 minutes.
 */
describeEachDatabase('conflict avoidance (issue 16)', (ctx) => {
  let app: FastifyInstance;
  const clock = testClock(new Date('2026-05-04T12:00:00Z'));
  const db = () => ctx().db;
  let ids: { admission: string; ocean: string; talk: string };
  let talkSessions: Array<{ id: string; start: Date }>;
  let oceanSessions: Array<{ id: string; start: Date }>;
  let admissionSessions: Array<{ id: string; start: Date }>;
  let sellerId: string;

  async function ofEvent(name: string) {
    const type = await db()
      .selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
      .select(['ticket_type.id', 'event_template.id as event_id'])
      .where('event_template.name', '=', name)
      .where('ticket_group.flexible', '=', false)
      // a type any guest may buy (the admission's members-only Member Admission would be refused)
      .where('ticket_type.member_only', '=', false)
      .where('ticket_group.hidden_type', '=', 'public_browsable')
      // and without a code of its own (General Admission's CityPASS entries need one each)
      .where('ticket_group.handler', '!=', 'citypass')
      .orderBy('ticket_type._rank')
      .orderBy('ticket_type.id')
      .executeTakeFirstOrThrow();
    const sessions = await db()
      .selectFrom('event_session')
      .select(['id', 'start_datetime'])
      .where('event_template_id', '=', type.event_id)
      .where('start_datetime', '>', new Date('2026-05-05T00:00:00Z'))
      .where('start_datetime', '<', new Date('2026-05-07T00:00:00Z'))
      .orderBy('start_datetime')
      .execute();
    return { typeId: type.id, sessions: sessions.map((s) => ({ id: s.id, start: new Date(s.start_datetime) })) };
  }

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    // Ocean Light sells only after an admission with as many tickets (upsell.test.ts): these tests are about overlaps
    await dropAnchorRules(db(), sellerId);
    app = await buildTestApp(testDeps(ctx(), clock.now));
    const admission = await ofEvent('General Admission');
    const ocean = await ofEvent('Ocean Light: Creatures of the Deep');
    const talk = await ofEvent('Free Gallery Talk: Objects in Focus');
    ids = { admission: admission.typeId, ocean: ocean.typeId, talk: talk.typeId };
    admissionSessions = admission.sessions;
    oceanSessions = ocean.sessions;
    talkSessions = talk.sessions;
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The talk of the first day, the Ocean Light slot starting with it, the one an hour earlier, and admission then. */
  function day() {
    const talk = talkSessions[0];
    const same = oceanSessions.find((s) => s.start.getTime() === talk.start.getTime())!;
    const earlier = oceanSessions.find((s) => s.start.getTime() === talk.start.getTime() - 3600_000)!;
    const admission = admissionSessions.find(
      (s) => s.start.getTime() <= talk.start.getTime() && s.start.getTime() > talk.start.getTime() - 3 * 3600_000,
    )!;
    expect(same && earlier && admission).toBeTruthy();
    return { talk, same, earlier, admission, nextTalk: talkSessions[1] };
  }

  const line = (typeId: string, sessionId: string) => ({ ticket_type_id: typeId, event_session_id: sessionId });

  it('refuses a session that overlaps one in the cart, naming both; admission overlaps nothing', async () => {
    const d = day();
    const b = new Browser(app);
    const first = await b.post(`/api/cart/modify?${SELLER}`, { add: [line(ids.admission, d.admission.id), line(ids.ocean, d.same.id)] });
    expect(first.status).toBe(200);
    const cartId = first.body.cart._data[0].id;
    const item = first.body.cart._data[0].items.find((i: { event_session_id: string }) => i.event_session_id === d.same.id);
    expect(item).toMatchObject({ category: 'exhibition', pad_pre_start: null, pad_post_end: null });
    expect(new Date(item.end_datetime).getTime() - new Date(item.start_datetime).getTime()).toBe(45 * 60_000);

    const clash = await b.post(`/api/cart/${cartId}/modify?${SELLER}`, { add: [line(ids.talk, d.talk.id)] });
    expect(clash.status).toBe(409);
    expect(clash.body._data[0]).toMatchObject({ _code: 'session_conflict' });
    expect(clash.body._data[0]._extra).toMatchObject({ event_session_id: d.talk.id, conflicting_session_id: d.same.id });
    // nothing of the refused change stayed
    const after = await b.get(`/api/cart/${cartId}?${SELLER}`);
    const sessionsOf = (res: typeof first) =>
      res.body.cart._data[0].items.map((i: { event_session_id: string | null }) => i.event_session_id);
    expect(sessionsOf(after)).toEqual(sessionsOf(first));

    const otherDay = await b.post(`/api/cart/${cartId}/modify?${SELLER}`, { add: [line(ids.talk, d.nextTalk.id)] });
    expect(otherDay.status).toBe(200);
    // more tickets for a session already in the cart are no conflict
    const more = await b.post(`/api/cart/${cartId}/modify?${SELLER}`, { add: [line(ids.ocean, d.same.id)] });
    expect(more.status).toBe(200);
  });

  it('checks the lines of one request against each other; the padding decides at the edges', async () => {
    const d = day();
    const together = await new Browser(app).post(`/api/cart/modify?${SELLER}`, {
      add: [line(ids.ocean, d.same.id), line(ids.talk, d.talk.id)],
    });
    expect(together.status).toBe(409);
    expect(together.body._data[0]._code).toBe('session_conflict');
    // 45 minutes an hour earlier: ends 15 minutes before the talk, more than the 5 + 5 minutes of padding
    const apart = await new Browser(app).post(`/api/cart/modify?${SELLER}`, {
      add: [line(ids.ocean, d.earlier.id), line(ids.talk, d.talk.id)],
    });
    expect(apart.status).toBe(200);
    // the event's own padding wins over the seller's: 20 minutes before the talk makes the earlier slot overlap
    const talkEvent = await db()
      .selectFrom('event_session')
      .select('event_template_id')
      .where('id', '=', d.talk.id)
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('event_template')
      .set({ meta: sql`meta || '{"pad_pre_start": 20}'::jsonb` })
      .where('id', '=', talkEvent.event_template_id)
      .execute();
    try {
      const padded = await new Browser(app).post(`/api/cart/modify?${SELLER}`, {
        add: [line(ids.ocean, d.earlier.id), line(ids.talk, d.talk.id)],
      });
      expect(padded.status).toBe(409);
    } finally {
      await db()
        .updateTable('event_template')
        .set({ meta: sql`meta - 'pad_pre_start'` })
        .where('id', '=', talkEvent.event_template_id)
        .execute();
    }
  });

  it('accepts overlaps when the seller turns conflict avoidance off', async () => {
    const d = day();
    await db()
      .updateTable('seller')
      .set({ config: sql`jsonb_set(config, '{conflict_avoidance,enabled}', 'false')` })
      .where('id', '=', sellerId)
      .execute();
    try {
      const res = await new Browser(app).post(`/api/cart/modify?${SELLER}`, {
        add: [line(ids.ocean, d.same.id), line(ids.talk, d.talk.id)],
      });
      expect(res.status).toBe(200);
    } finally {
      await db()
        .updateTable('seller')
        .set({ config: sql`jsonb_set(config, '{conflict_avoidance,enabled}', 'true')` })
        .where('id', '=', sellerId)
        .execute();
    }
  });
});

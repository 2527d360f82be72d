import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { fixtureApp, insertFixtures, type Fixture } from '../helpers/fixtures';

let fx: Fixture;
let app: FastifyInstance;
const get = (url: string) => app.inject({ url });
const post = (url: string, payload: unknown) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: { 'x-ticketing-app': 'ecomm' } });
const ids = (res: { json(): any }) => res.json().event_session._data.map((s: { id: string }) => s.id);

describeEachDatabase(
  'GET events/{id}/sessions',
  () => {
    it('lists future active sessions with capacity, prices and annotations; sold out hidden by default', async () => {
      const res = await get(`/cached_api/events/${fx.events.timed}/sessions`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toMatch(/^public, max-age=/);
      // Not: the past one, the sold-out one, the cancelled one, the one whose only public group is full.
      // The 14th is full only through an expired cart's hold, which reads release.
      expect(ids(res)).toEqual([fx.sessions.s1, fx.sessions.later, fx.sessions.expiredHold]);
      const [s1, later, held] = res.json().event_session._data;
      expect(s1).toEqual({
        id: fx.sessions.s1,
        event_template_id: fx.events.timed,
        start_datetime: '2026-03-11T14:00:00.000Z',
        end_datetime: '2026-03-11T15:00:00.000Z',
        capacity: 2,
        used_capacity: 0,
        oversell_capacity: 0,
        sold_out: false,
        availableCapacity: 2,
        minPrice: '15.00',
        price: '15.00',
        priceIncrease: '0.00',
        annotations: ['Quiet hour'],
        messages: [],
      });
      expect(later).toMatchObject({ capacity: -1, availableCapacity: -1, minPrice: '20.00', priceIncrease: '5.00', annotations: [] });
      expect(held).toMatchObject({ capacity: 1, used_capacity: 0, availableCapacity: 1, sold_out: false });
    });

    it('shows sold-out sessions with sold_out=T, marked', async () => {
      const res = await get(`/api/events/${fx.events.timed}/sessions?sold_out=T`);
      expect(ids(res)).toEqual([fx.sessions.s1, fx.sessions.soldOut, fx.sessions.later, fx.sessions.groupFull, fx.sessions.expiredHold]);
      const rows = res.json().event_session._data;
      expect(rows[1]).toMatchObject({ sold_out: true, availableCapacity: 0, used_capacity: 2 });
      expect(rows[3]).toMatchObject({ sold_out: true, availableCapacity: 7, annotations: ['Last entry 4 pm', 'Quiet hour'] });
    });

    it('filters by venue-local date, range, groups; sorts and pages', async () => {
      expect(ids(await get(`/api/events/${fx.events.timed}/sessions?start_datetime._ondate=2026-03-11&sold_out=T`))).toEqual([
        fx.sessions.s1,
        fx.sessions.soldOut,
      ]);
      expect(
        ids(
          await get(`/api/events/${fx.events.timed}/sessions?start_datetime._gte=2026-03-12T00:00:00-04:00&start_datetime._lt=2026-03-14`),
        ),
      ).toEqual([fx.sessions.later]);
      expect(ids(await get(`/api/events/${fx.events.timed}/sessions?_sort=-start_datetime`))).toEqual([
        fx.sessions.expiredHold,
        fx.sessions.later,
        fx.sessions.s1,
      ]);
      const page = (await get(`/api/events/${fx.events.timed}/sessions?_limit=1&_offset=1`)).json().event_session;
      expect(page).toMatchObject({ _count: 3, _data: [{ id: fx.sessions.later }] });
      // The members group is unlimited, so only a full session stops it.
      expect(ids(await get(`/api/events/${fx.events.timed}/sessions?ticket_group_id._in=${fx.groups.member}`))).toEqual([
        fx.sessions.s1,
        fx.sessions.later,
        fx.sessions.groupFull,
        fx.sessions.expiredHold,
      ]);
      expect(ids(await get(`/api/events/${fx.events.timed}/sessions?ticket_group.id._in=${fx.groups.general}`))).toEqual([
        fx.sessions.s1,
        fx.sessions.later,
        fx.sessions.expiredHold,
      ]);
      const withVenue = (await get(`/api/events/${fx.events.timed}/sessions?_embed=venue`)).json();
      expect(withVenue.venue._data[0].name).toBe('Main Building');
    });

    it('refuses bad input with 400 and unknown events with 404', async () => {
      for (const q of [
        '_limit=-1',
        'sold_out=X',
        '_sort=price',
        'start_datetime._ondate=2026-02-30',
        'start_datetime._ondate=20260301',
        'ticket_group_id._in=1,2',
        'start_datetime._gte=9999999999999999999',
      ]) {
        const res = await get(`/api/events/${fx.events.timed}/sessions?${q}`);
        expect(res.statusCode, q).toBe(400);
        expect(res.json()._data[0]._code, q).toBe('validation_failed');
      }
      const res = await get(`/api/events/${fx.events.other}/sessions`);
      expect(res.statusCode).toBe(404);
      expect(res.json()._data[0]._code).toBe('event_not_found');
    });
  },
  async (h) => {
    fx = await insertFixtures(h.db);
    app = await fixtureApp(h.db, h.kind);
  },
);

describeEachDatabase(
  'POST events/{id}/sessions',
  () => {
    it('returns sessions where the quantities fit, and their price schedule', async () => {
      const url = `/api/events/${fx.events.timed}/sessions`;
      const two = await post(url, { tickets: [{ ticket_type_id: fx.types.adult, quantity: 2 }] });
      expect(two.statusCode).toBe(200);
      // The 14th has room for one only; the 13th's group is full; the 11th at 11:00 is sold out.
      expect(ids(two)).toEqual([fx.sessions.s1, fx.sessions.later]);
      expect(two.json().price_schedule._data).toEqual([
        {
          event_session_id: fx.sessions.s1,
          ticket_type_id: fx.types.adult,
          ticket_group_id: fx.groups.general,
          quantity: 2,
          currency_amount: '25.00',
          unit_amount: '25.00',
          total_amount: '50.00',
        },
        {
          event_session_id: fx.sessions.later,
          ticket_type_id: fx.types.adult,
          ticket_group_id: fx.groups.general,
          quantity: 2,
          currency_amount: '30.00',
          unit_amount: '30.00',
          total_amount: '60.00',
        },
      ]);
      // Three tickets exceed the capacity-2 session.
      const three = await post(url, {
        tickets: [
          { ticket_type_id: fx.types.adult, quantity: 1 },
          { ticket_type_id: fx.types.child, quantity: 2 },
        ],
      });
      expect(ids(three)).toEqual([fx.sessions.later]);
      // max_tickets_per_order of the group is 4.
      expect(ids(await post(url, { tickets: [{ ticket_type_id: fx.types.adult, quantity: 5 }] }))).toEqual([]);
      // A flexible group has 4 left whatever the session.
      expect(ids(await post(url, { tickets: [{ ticket_type_id: fx.types.flex, quantity: 5 }] }))).toEqual([]);
      // The discounted price is what is paid.
      const senior = (
        await post(`${url}?start_datetime._ondate=2026-03-11`, { tickets: [{ ticket_type_id: fx.types.senior, quantity: 1 }] })
      ).json();
      expect(senior.price_schedule._data[0]).toMatchObject({ currency_amount: '20.00', unit_amount: '18.00', total_amount: '18.00' });
    });

    it('_include_sold_out lists every session with the non-fitting ones marked sold out', async () => {
      const res = await post(`/api/events/${fx.events.timed}/sessions?_include_sold_out=T`, {
        tickets: [{ ticket_type_id: fx.types.adult, quantity: 2 }],
      });
      expect(res.json().event_session._data.map((s: { id: string; sold_out: boolean }) => [s.id, s.sold_out])).toEqual([
        [fx.sessions.s1, false],
        [fx.sessions.soldOut, true],
        [fx.sessions.later, false],
        [fx.sessions.groupFull, true],
        [fx.sessions.expiredHold, true],
      ]);
    });

    it('refuses bad bodies (400), unknown ticket types (404) and writes without the app header (403)', async () => {
      const url = `/api/events/${fx.events.timed}/sessions`;
      for (const payload of [
        {},
        { tickets: [] },
        { tickets: [{ ticket_type_id: fx.types.adult, quantity: 0 }] },
        { tickets: [{ ticket_type_id: fx.types.adult, quantity: 1001 }] },
        { tickets: [{ ticket_type_id: 'x', quantity: 1 }] },
        { tickets: [{ ticket_type_id: fx.types.adult, quantity: '1; drop table seller' }] },
      ]) {
        const res = await post(url, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json()._data[0]._code).toBe('validation_failed');
      }
      const unknown = await post(url, { tickets: [{ ticket_type_id: fx.types.other, quantity: 1 }] });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()._data[0]).toMatchObject({ _code: 'ticket_type_not_found', _extra: { ids: [fx.types.other] } });
      const noHeader = await app.inject({ method: 'POST', url, payload: { tickets: [{ ticket_type_id: fx.types.adult, quantity: 1 }] } });
      expect(noHeader.statusCode).toBe(403);
    });
  },
  async (h) => {
    fx = await insertFixtures(h.db);
    app = await fixtureApp(h.db, h.kind);
  },
);

describeEachDatabase(
  'GET events/{id}/sessions/{sid}',
  () => {
    it('returns one session, with the venue when embedded', async () => {
      const res = await get(`/api/events/${fx.events.timed}/sessions/${fx.sessions.s1}?_embed=venue`);
      expect(res.statusCode).toBe(200);
      expect(res.json().event_session._data).toHaveLength(1);
      expect(res.json().event_session._data[0]).toMatchObject({ id: fx.sessions.s1, availableCapacity: 2 });
      expect(res.json().venue._data[0].id).toBe(fx.venueId);
      expect(res.json().ticket_group).toBeUndefined();
    });

    it('with ticket_group_id._in gives those groups and their types with per-session figures', async () => {
      const q = `ticket_group_id._in=${fx.groups.general},${fx.groups.flexible}`;
      const later = (await get(`/api/events/${fx.events.timed}/sessions/${fx.sessions.later}?${q}`)).json();
      expect(later.ticket_group._data.map((g: any) => [g.id, g.used_capacity, g.available_capacity, g.available])).toEqual([
        [fx.groups.general, 0, 5, true],
        [fx.groups.flexible, 1, 4, true],
      ]);
      expect(later.ticket_type._data.map((t: any) => [t.name, t.currency_amount])).toEqual([
        ['Adult', '30.00'],
        ['Child', '20.00'],
        ['Senior', '25.00'],
        ['Any Day Adult', '30.00'],
      ]);
      const soldOut = (await get(`/api/events/${fx.events.timed}/sessions/${fx.sessions.soldOut}?${q}`)).json();
      expect(soldOut.ticket_group._data[0]).toMatchObject({ used_capacity: 2, available_capacity: 3, available: false });
      const full = (await get(`/api/events/${fx.events.timed}/sessions/${fx.sessions.groupFull}?${q}`)).json();
      expect(full.ticket_group._data[0]).toMatchObject({ capacity: 3, used_capacity: 3, available_capacity: 0, available: false });
      expect(full.ticket_type._data.filter((t: any) => !t.available).map((t: any) => t.name)).toEqual(['Adult', 'Child', 'Senior']);
    });

    it('answers 404 event_session_not_found for a session of another event, a cancelled or unknown one', async () => {
      for (const sid of [fx.sessions.exhibition, fx.sessions.cancelled, fx.sessions.other, '00000000-0000-4000-8000-000000000001']) {
        const res = await get(`/api/events/${fx.events.timed}/sessions/${sid}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()._data[0]._code).toBe('event_session_not_found');
      }
      expect((await get(`/api/events/${fx.events.timed}/sessions/${fx.sessions.past}`)).statusCode).toBe(200);
      expect((await get(`/api/events/${fx.events.timed}/sessions/xyz`)).statusCode).toBe(400);
      expect((await get(`/api/events/${fx.events.timed}/sessions/${fx.sessions.s1}?ticket_group_id._in=bad`)).statusCode).toBe(400);
    });
  },
  async (h) => {
    fx = await insertFixtures(h.db);
    app = await fixtureApp(h.db, h.kind);
  },
);

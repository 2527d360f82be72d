import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { fixtureApp, insertFixtures, type Fixture } from '../helpers/fixtures';

let fx: Fixture;
let app: FastifyInstance;
const get = (url: string) => app.inject({ url });
const names = (res: { json(): any }) => res.json().event_template._data.map((e: { name: string }) => e.name);

describeEachDatabase(
  'GET events/available',
  () => {
    it('lists the public events with something on sale, by _rank, with next_session_start', async () => {
      const res = await get('/api/events/available');
      expect(res.statusCode).toBe(200);
      // Members-only, link-only and hidden events stay out; the past-only event has nothing to sell;
      // the donation event has no sessions but a sessionless group on sale; other sellers' events never show.
      expect(names(res)).toEqual(['Timed Admission', 'Sculpture Garden', 'Donate']);
      const timed = res.json().event_template._data[0];
      expect(timed).toEqual({
        id: fx.events.timed,
        seller_id: fx.sellerId,
        name: 'Timed Admission',
        category: 'admission',
        subtitle: null,
        summary: null,
        description: null,
        event_type: 'repeating',
        hidden_type: 'public_browsable',
        venue_id: fx.venueId,
        _rank: 1,
        metadata: { audience: 'family' },
        next_session_start: '2026-03-11T14:00:00.000Z',
      });
      expect(res.json().event_template._data[2].next_session_start).toBeNull();
    });

    it('lists members-only and link-only events only when asked, never hidden ones', async () => {
      expect(names(await get('/api/events/available?hidden_type._in=public_member_only'))).toEqual(['Members Morning']);
      expect(names(await get('/api/events/available?hidden_type._in=public_link_only,hidden'))).toEqual(['Private Tour']);
      expect(names(await get('/api/events/available?hidden_type._in=hidden'))).toEqual([]);
    });

    it('filters by category, date range, venue-local time of day and metadata', async () => {
      expect(names(await get('/api/events/available?category=exhibition'))).toEqual(['Sculpture Garden']);
      expect(names(await get('/api/events/available?category._in=admission,donation'))).toEqual(['Timed Admission', 'Donate']);
      // 2026-03-20 (venue day): only the exhibition has a session; the timed event's any-day group and the
      // donation group are on sale every day.
      expect(names(await get('/api/events/available?start_datetime._gte=2026-03-20&start_datetime._lt=2026-03-21'))).toEqual([
        'Timed Admission',
        'Sculpture Garden',
        'Donate',
      ]);
      expect(names(await get('/api/events/available?category=exhibition&start_datetime._gte=2026-03-21'))).toEqual([]);
      expect(
        names(
          await get('/api/events/available?start_datetime._gte=2026-03-11T00:00:00-04:00&start_datetime._lt=2026-03-12T00:00:00-04:00'),
        ),
      ).toEqual(['Timed Admission', 'Donate']);
      // Sessions start at 10:00, 11:00, 14:00 (timed) and 18:00 (exhibition) venue time.
      expect(names(await get('/api/events/available?time.start=17:00&time.end=24:00'))).toEqual(['Sculpture Garden']);
      expect(names(await get('/api/events/available?time.start=09:30&time.end=10:30'))).toEqual(['Timed Admission']);
      expect(names(await get('/api/events/available?time.start=18:01'))).toEqual([]);
      expect(names(await get('/api/events/available?metadata.audience=family'))).toEqual(['Timed Admission']);
      expect(names(await get('/api/events/available?metadata.audience=adults'))).toEqual([]);
    });

    it('pages with _limit/_offset (count is the total) and sorts by name or start', async () => {
      const page = (await get('/api/events/available?_limit=1&_offset=1')).json().event_template;
      expect(page._count).toBe(3);
      expect(page._data.map((e: { name: string }) => e.name)).toEqual(['Sculpture Garden']);
      expect(names(await get('/api/events/available?_sort=name'))).toEqual(['Donate', 'Sculpture Garden', 'Timed Admission']);
      expect(names(await get('/api/events/available?_sort=-name'))).toEqual(['Timed Admission', 'Sculpture Garden', 'Donate']);
      expect(names(await get('/api/events/available?_sort=start'))).toEqual(['Timed Admission', 'Sculpture Garden', 'Donate']);
      expect((await get('/api/events/available?_limit=100000')).json().event_template._data).toHaveLength(3);
    });

    it('embeds venue, meta, config, groups (no members-only or hidden ones), types and sessions', async () => {
      const body = (
        await get('/api/events/available?category=admission&_embed=venue,meta,config,ticket_group,ticket_type,event_session')
      ).json();
      expect(body.event_template._data[0].meta).toEqual({ image_profile: fx.imageId });
      expect(body.event_template._data[0].config).toEqual({ web: { price_display: { prefix: 'From' } } });
      expect(body.venue._data).toEqual([{ id: fx.venueId, name: 'Main Building', timezone: 'America/New_York', address: {} }]);
      expect(body.ticket_group._data.map((g: { name: string }) => g.name)).toEqual(['General', 'Any Day']);
      expect(body.ticket_type._data.map((t: { name: string }) => t.name)).toEqual(['Adult', 'Child', 'Senior', 'Any Day Adult']);
      expect(body.event_session._data.map((s: { id: string }) => s.id)).toEqual([
        fx.sessions.s1,
        fx.sessions.soldOut,
        fx.sessions.later,
        fx.sessions.groupFull,
        fx.sessions.expiredHold,
      ]);
      const withSessions = (await get('/api/events/available?category=exhibition&includeSessions=true')).json();
      expect(withSessions.event_session._data.map((s: { id: string }) => s.id)).toEqual([fx.sessions.exhibition]);
    });

    it('refuses bad input with 400 validation_failed and an unknown seller with 404', async () => {
      for (const q of [
        '_limit=-1',
        '_limit=abc',
        '_offset=-5',
        'start_datetime._gte=2026-02-30',
        'start_datetime._gte=yesterday',
        'time.start=25:00',
        'time.start=9am',
        '_sort=price',
        'hidden_type._in=secret',
        'includeSessions=maybe',
        '_embed=venue;drop',
      ]) {
        const res = await get(`/api/events/available?${q}`);
        expect(res.statusCode, q).toBe(400);
        expect(res.json()._data[0]._code, q).toBe('validation_failed');
      }
      const res = await get('/api/events/available?_seller=nope');
      expect(res.statusCode).toBe(404);
      expect(res.json()._data[0]._code).toBe('seller_not_found');
    });
  },
  async (h) => {
    fx = await insertFixtures(h.db);
    app = await fixtureApp(h.db, h.kind);
  },
);

describeEachDatabase(
  'GET events/{id} and POST events/{id}/pricecheck',
  () => {
    it('returns the event with its public groups, types, rules, venue, meta and config', async () => {
      const res = await get(`/api/events/${fx.events.timed}?_embed=ticket_group,ticket_type,message_rule,venue,meta,config`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.event_template._data[0]).toMatchObject({
        id: fx.events.timed,
        meta: { image_profile: fx.imageId },
        config: { web: { price_display: { prefix: 'From' } } },
      });
      expect(body.venue._count).toBe(1);
      expect(body.ticket_group._data.map((g: { id: string }) => g.id)).toEqual([fx.groups.general, fx.groups.flexible]);
      expect(body.ticket_group._data[1]).toMatchObject({
        name: 'Any Day',
        flexible: true,
        capacity: 5,
        used_capacity: 1,
        available_capacity: 4,
        available: true,
      });
      const adult = body.ticket_type._data.find((t: { id: string }) => t.id === fx.types.adult);
      expect(adult).toEqual({
        id: fx.types.adult,
        name: 'Adult',
        _rank: 1,
        summary: null,
        description: null,
        currency_amount: '25.00',
        currency_amount_min: null,
        currency_amount_max: null,
        discounted_amount: null,
        outside_fees: [{ name: 'Service fee', fee: '1.50', fixed: '1.50', percent: 0 }],
        ticket_group_id: fx.groups.general,
        event_template_category: 'admission',
        member_only: false,
        available: true,
      });
      const child = body.ticket_type._data.find((t: { id: string }) => t.id === fx.types.child);
      expect(child.outside_fees).toEqual([{ name: 'Service fee', fee: '1.50', fixed: '0.00', percent: 10 }]);
      expect(body.ticket_type._data.find((t: { id: string }) => t.id === fx.types.senior).discounted_amount).toBe('18.00');
      expect(body.message_rule._count).toBe(2);
      expect(body.message_rule._data[0]).toMatchObject({ _rank: 0, event_template_id: fx.events.timed });
    });

    it('shows members-only groups only when asked and narrows by ticket_group_id._in', async () => {
      const members = (
        await get(`/api/events/${fx.events.timed}?_embed=ticket_group,ticket_type&hidden_type._in=public_browsable,public_member_only`)
      ).json();
      expect(members.ticket_group._data.map((g: { name: string }) => g.name)).toEqual(['General', 'Members', 'Any Day']);
      expect(members.ticket_type._data.find((t: { id: string }) => t.id === fx.types.member)).toMatchObject({
        member_only: true,
        currency_amount: '0.00',
      });
      const one = (await get(`/api/events/${fx.events.timed}?_embed=ticket_group&ticket_group_id._in=${fx.groups.flexible}`)).json();
      expect(one.ticket_group._data.map((g: { id: string }) => g.id)).toEqual([fx.groups.flexible]);
      // Hidden groups never show, even when named.
      const hidden = (await get(`/api/events/${fx.events.timed}?_embed=ticket_group&ticket_group_id._in=${fx.groups.hiddenGroup}`)).json();
      expect(hidden.ticket_group._data).toEqual([]);
    });

    it('opens link-only and members-only events by id; hidden, unknown and foreign ids are 404 event_not_found', async () => {
      expect((await get(`/api/events/${fx.events.link}`)).statusCode).toBe(200);
      expect((await get(`/api/events/${fx.events.members}`)).statusCode).toBe(200);
      for (const id of [fx.events.hidden, fx.events.other, '00000000-0000-4000-8000-000000000000']) {
        const res = await get(`/api/events/${id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()._data[0]._code).toBe('event_not_found');
      }
      const bad = await get('/api/events/not-a-uuid');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()._data[0]._code).toBe('validation_failed');
    });

    it('pricecheck returns the asked types with their groups, grouped by group', async () => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/events/${fx.events.timed}/pricecheck`,
        headers: { 'x-ticketing-app': 'ecomm' },
        payload: { ticket_types_required: [fx.types.flex, fx.types.adult, fx.types.child, fx.types.other] },
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.ticket_type._data.map((t: { id: string; ticket_group_id: string }) => [t.id, t.ticket_group_id])).toEqual([
        [fx.types.adult, fx.groups.general],
        [fx.types.child, fx.groups.general],
        [fx.types.flex, fx.groups.flexible],
      ]);
      expect(body.ticket_group._data.map((g: { id: string }) => g.id)).toEqual([fx.groups.general, fx.groups.flexible]);
    });

    it('pricecheck refuses writes without the app header, bad bodies and unknown events', async () => {
      const url = `/api/events/${fx.events.timed}/pricecheck`;
      const noHeader = await app.inject({ method: 'POST', url, payload: { ticket_types_required: [] } });
      expect(noHeader.statusCode).toBe(403);
      expect(noHeader.json()._data[0]._code).toBe('csrf_header_missing');
      const headers = { 'x-ticketing-app': 'ecomm' };
      for (const payload of [{}, { ticket_types_required: 'x' }, { ticket_types_required: ['nope'] }]) {
        const res = await app.inject({ method: 'POST', url, headers, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json()._data[0]._code).toBe('validation_failed');
      }
      const unknown = await app.inject({
        method: 'POST',
        url: `/api/events/${fx.events.other}/pricecheck`,
        headers,
        payload: { ticket_types_required: [] },
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()._data[0]._code).toBe('event_not_found');
    });
  },
  async (h) => {
    fx = await insertFixtures(h.db);
    app = await fixtureApp(h.db, h.kind);
  },
);

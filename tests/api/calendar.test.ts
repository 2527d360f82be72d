import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { fixtureApp, insertFixtures, type Fixture } from '../helpers/fixtures';

let fx: Fixture;
let app: FastifyInstance;
const get = (url: string) => app.inject({ url });
const post = (url: string, payload: unknown) =>
  app.inject({ method: 'POST', url, payload: payload as object, headers: { 'x-ticketing-app': 'ecomm' } });
const days = (res: { json(): any }) => res.json().calendar._data as Array<Record<string, any>>;
const statuses = (res: { json(): any }) => days(res).map((d) => `${d.date} ${d.status}`);

describeEachDatabase(
  'GET and POST events/{id}/calendar',
  () => {
    it('covers 120 venue-local days from today by default', async () => {
      const res = await get(`/cached_api/events/${fx.events.timed}/calendar`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toMatch(/^public/);
      const rows = days(res);
      expect(rows).toHaveLength(120);
      expect(rows[0].date).toBe('2026-03-10');
      expect(rows[119].date).toBe('2026-07-07');
      // The price format carries no availability details.
      expect(Object.keys(rows[1]).sort()).toEqual(['date', 'enabled', 'min_price', 'min_price_fees', 'price', 'pricePrefix', 'status']);
    });

    it('extended: status, prices, fees, availability, badges, message-rule texts and labels per day', async () => {
      const res = await get(`/api/events/${fx.events.timed}/calendar?_format=extended&start_date=2026-03-10&end_date=2026-03-15`);
      expect(statuses(res)).toEqual([
        '2026-03-10 unavailable',
        '2026-03-11 available',
        '2026-03-12 available',
        '2026-03-13 sold_out',
        '2026-03-14 available',
        '2026-03-15 unavailable',
      ]);
      const [tue, wed, thu, fri, sat] = days(res);
      expect(tue).toEqual({
        date: '2026-03-10',
        enabled: false,
        status: 'unavailable',
        price: null,
        min_price: null,
        min_price_fees: { outside: null },
        pricePrefix: 'From',
        availability: { capacity: 0, used_capacity: 0 },
        badges: [],
        annotations: [],
        tooltip: [],
        ariaLabel: 'Tuesday, March 10, 2026, Unavailable',
      });
      expect(wed).toEqual({
        date: '2026-03-11',
        enabled: true,
        status: 'available',
        price: '15.00',
        min_price: '15.00',
        min_price_fees: { outside: '1.50' },
        pricePrefix: 'From',
        availability: { capacity: 4, used_capacity: 2 },
        badges: ['few_left'],
        annotations: ['Late opening'],
        tooltip: ['Open until 9 pm on Wednesdays'],
        ariaLabel: 'Wednesday, March 11, 2026, Available, from $15.00',
      });
      expect(thu).toMatchObject({
        min_price: '20.00',
        min_price_fees: { outside: '2.00' },
        availability: { capacity: -1, used_capacity: 0 },
        badges: ['price_increase'],
        annotations: [],
      });
      expect(fri).toMatchObject({ enabled: false, status: 'sold_out', ariaLabel: 'Friday, March 13, 2026, Sold out' });
      expect(sat).toMatchObject({ enabled: true, availability: { capacity: 1, used_capacity: 0 }, badges: ['few_left'] });
    });

    it('ticket_group_id._in decides availability by those groups', async () => {
      const res = await get(
        `/api/events/${fx.events.timed}/calendar?start_date=2026-03-13&end_date=2026-03-13&ticket_group_id._in=${fx.groups.member}`,
      );
      expect(statuses(res)).toEqual(['2026-03-13 available']);
    });

    it('POST prices the selected quantities and enables only days where they fit', async () => {
      const url = `/api/events/${fx.events.timed}/calendar?start_date=2026-03-11&end_date=2026-03-14`;
      const res = await post(url, { tickets: [{ ticket_type_id: fx.types.adult, quantity: 2 }] });
      expect(res.statusCode).toBe(200);
      expect(statuses(res)).toEqual(['2026-03-11 available', '2026-03-12 available', '2026-03-13 sold_out', '2026-03-14 sold_out']);
      expect(days(res)[0]).toMatchObject({ price: '50.00', min_price: '50.00', min_price_fees: { outside: '3.00' } });
      expect(days(res)[1]).toMatchObject({ price: '60.00', min_price: '60.00' });
    });

    it('refuses more than 10 ticket types in context event_calendar', async () => {
      const tickets = Array.from({ length: 11 }, () => ({ ticket_type_id: randomUUID(), quantity: 1 }));
      const res = await post(`/api/events/${fx.events.timed}/calendar`, { tickets });
      expect(res.statusCode).toBe(400);
      // The storefront words it (reserve.errors.tooManyTypes) from the code and the context.
      expect(res.json()._data[0]).toMatchObject({ _code: 'validation_failed', _context: 'event_calendar' });
      expect(res.json()._data[0]).not.toHaveProperty('_description');
      const ten = await post(`/api/events/${fx.events.timed}/calendar`, { tickets: tickets.slice(0, 10) });
      expect(ten.statusCode).toBe(404);
      expect(ten.json()._data[0]._code).toBe('ticket_type_not_found');
    });

    it('refuses bad dates, formats and ids with 400, unknown events with 404', async () => {
      for (const q of [
        'start_date=2026-02-30',
        'end_date=2026-13-01',
        'start_date=2026-03-10&end_date=2026-03-01',
        'start_date=2026-01-01&end_date=2030-01-01',
        '_format=xml',
        'ticket_group_id._in=abc',
        'start_date=0000-00-00',
      ]) {
        const res = await get(`/api/events/${fx.events.timed}/calendar?${q}`);
        expect(res.statusCode, q).toBe(400);
        expect(res.json()._data[0]._code, q).toBe('validation_failed');
      }
      const res = await get(`/api/events/${fx.events.other}/calendar`);
      expect(res.statusCode).toBe(404);
      expect(res.json()._data[0]._code).toBe('event_not_found');
      const noHeader = await app.inject({ method: 'POST', url: `/api/events/${fx.events.timed}/calendar`, payload: { tickets: [] } });
      expect(noHeader.statusCode).toBe(403);
    });
  },
  async (h) => {
    fx = await insertFixtures(h.db);
    app = await fixtureApp(h.db, h.kind);
  },
);

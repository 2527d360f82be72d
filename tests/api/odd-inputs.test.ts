import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { fixtureApp, insertFixtures, type Fixture } from '../helpers/fixtures';

/** No input may make a read route answer 5xx; every refusal carries a _code. */
let fx: Fixture;
let app: FastifyInstance;

const ODD_VALUES = [
  '',
  '-1',
  '0',
  '1e400',
  '99999999999999999999999',
  "' OR 1=1 --",
  "x'); drop table seller; --",
  '2026-02-30',
  '2026-02-29',
  '9999-12-31',
  '0000-00-00',
  '24:00',
  '99:99',
  'T',
  'null',
  '[]',
  '{}',
  '%00',
  '%FF%FE',
  'Ω≈ç√',
  'a'.repeat(5000),
  '00000000-0000-0000-0000-000000000000',
  ',,,',
  'unknown_embed,venue',
];

function expectSane(res: { statusCode: number; json(): any; body: string }, what: string) {
  expect(res.statusCode, what).toBeLessThan(500);
  // Refusals from Fastify's router itself (414 for an over-long path parameter) carry a _code too.
  if (res.statusCode >= 400) expect(typeof res.json()._data?.[0]?._code, what).toBe('string');
}

describeEachDatabase(
  'odd inputs never give 5xx',
  () => {
    it('query parameters of every GET route', async () => {
      const e = fx.events.timed;
      const routes: Array<[string, string[]]> = [
        ['/api/config', ['_seller', 'key._in', 'resource_id._in']],
        [
          '/api/events/available',
          [
            '_seller',
            'hidden_type._in',
            'category',
            'category._in',
            'start_datetime._gte',
            'start_datetime._lt',
            'time.start',
            'time.end',
            'metadata.audience',
            '_embed',
            'includeSessions',
            '_limit',
            '_offset',
            '_sort',
          ],
        ],
        [`/api/events/${e}`, ['_embed', 'ticket_group_id._in', 'hidden_type._in']],
        [
          `/cached_api/events/${e}/sessions`,
          [
            '_limit',
            '_offset',
            'sold_out',
            '_sort',
            'start_datetime._gte',
            'start_datetime._lt',
            'start_datetime._ondate',
            'ticket_group_id._in',
            'ticket_group.id._in',
            '_embed',
          ],
        ],
        [`/api/events/${e}/sessions/${fx.sessions.s1}`, ['_embed', 'ticket_group_id._in', 'hidden_type._in']],
        [`/api/events/${e}/calendar`, ['_format', 'ticket_group_id._in', 'start_date', 'end_date']],
        ['/api/event_template', ['id._in', 'category', 'hidden_type._in', '_embed', '_limit', '_offset']],
        [`/api/ticket_group/${fx.groups.general}`, ['_embed']],
        [`/api/image/${fx.imageId}`, ['sizex', 'sizey', 'shrinkonly']],
      ];
      for (const [path, keys] of routes) {
        for (const key of keys) {
          for (const value of ODD_VALUES) {
            const url = `${path}?${encodeURIComponent(key)}=${value.startsWith('%') ? value : encodeURIComponent(value)}`;
            expectSane(await app.inject({ url }), url);
          }
          const twice = `${path}?${key}=1&${key}=2`;
          expectSane(await app.inject({ url: twice }), twice);
        }
      }
    });

    it('path ids of every route', async () => {
      const ids = [
        'x',
        '1',
        "'",
        '%27%20or%201%3D1',
        '00000000-0000-0000-0000-00000000000g',
        'a'.repeat(300),
        fx.events.other,
        fx.sessions.other,
      ];
      for (const id of ids) {
        for (const url of [
          `/api/events/${id}`,
          `/api/events/${id}/sessions`,
          `/api/events/${fx.events.timed}/sessions/${id}`,
          `/api/events/${id}/calendar`,
          `/api/ticket_group/${id}`,
          `/api/image/${id}`,
        ]) {
          expectSane(await app.inject({ url }), url);
        }
      }
    });

    it('bodies of every POST route', async () => {
      const e = fx.events.timed;
      const bodies: unknown[] = [
        null,
        [],
        'text',
        42,
        {},
        { tickets: null },
        { tickets: {} },
        { tickets: [null] },
        { tickets: [{ ticket_type_id: fx.types.adult, quantity: 1e300 }] },
        { tickets: [{ ticket_type_id: fx.types.adult, quantity: -1 }] },
        { tickets: [{ ticket_type_id: fx.types.adult, quantity: 1.5 }] },
        { tickets: [{ ticket_type_id: fx.types.adult, quantity: '2' }] },
        { tickets: Array.from({ length: 500 }, () => ({ ticket_type_id: fx.types.adult, quantity: 1 })) },
        { tickets: [{ ticket_type_id: fx.types.adult, quantity: 1, extra: true }] },
        { ticket_types_required: [null] },
        { ticket_types_required: Array.from({ length: 1000 }, () => fx.types.adult) },
        { ticket_types_required: [fx.types.adult] },
      ];
      for (const url of [`/api/events/${e}/sessions`, `/api/events/${e}/calendar`, `/api/events/${e}/pricecheck`]) {
        for (const body of bodies) {
          const res = await app.inject({
            method: 'POST',
            url,
            headers: { 'x-ticketing-app': 'ecomm', 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          expectSane(res, `${url} ${JSON.stringify(body).slice(0, 80)}`);
        }
        const broken = await app.inject({
          method: 'POST',
          url,
          headers: { 'x-ticketing-app': 'ecomm', 'content-type': 'application/json' },
          payload: '{"tickets": [',
        });
        expectSane(broken, `${url} broken json`);
        expect(broken.statusCode).toBe(400);
      }
    });
  },
  async (h) => {
    fx = await insertFixtures(h.db);
    app = await fixtureApp(h.db, h.kind);
  },
);

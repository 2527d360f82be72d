import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { fixtureApp, insertFixtures, SVG, type Fixture } from '../helpers/fixtures';

let fx: Fixture;
let app: FastifyInstance;
const get = (url: string) => app.inject({ url });

describeEachDatabase(
  'GET event_template, ticket_group/{id}, image/{id}',
  () => {
    it('event_template lists every non-hidden event of the seller, with filters and embeds', async () => {
      const all = (await get('/api/event_template')).json().event_template;
      expect(all._count).toBe(6);
      expect(all._data.map((e: { name: string }) => e.name)).toEqual([
        'Timed Admission',
        'Sculpture Garden',
        'Members Morning',
        'Private Tour',
        'Donate',
        'Old Lecture',
      ]);
      const two = (
        await get(`/api/event_template?id._in=${fx.events.link},${fx.events.hidden},${fx.events.other}&_embed=venue,meta`)
      ).json();
      expect(two.event_template._data.map((e: { id: string }) => e.id)).toEqual([fx.events.link]);
      expect(two.event_template._data[0].meta).toEqual({});
      expect(two.venue._data.map((v: { id: string }) => v.id)).toEqual([fx.venueId]);
      expect((await get('/api/event_template?category=tour')).json().event_template._data.map((e: { name: string }) => e.name)).toEqual([
        'Private Tour',
      ]);
      expect(
        (await get('/api/event_template?hidden_type._in=public_member_only'))
          .json()
          .event_template._data.map((e: { name: string }) => e.name),
      ).toEqual(['Members Morning']);
      expect((await get('/api/event_template?_limit=2&_offset=5')).json().event_template).toMatchObject({
        _count: 6,
        _data: [{ name: 'Old Lecture' }],
      });
      expect((await get('/api/event_template?id._in=x')).statusCode).toBe(400);
    });

    it('ticket_group/{id} returns the group and its types; a donation type carries its min and max', async () => {
      const res = await get(`/api/ticket_group/${fx.groups.donation}?_embed=ticket_type`);
      expect(res.statusCode).toBe(200);
      expect(res.json().ticket_group._data[0]).toMatchObject({ id: fx.groups.donation, handler: 'donation', available: true });
      expect(res.json().ticket_type._data).toEqual([
        {
          id: fx.types.donation,
          name: 'Gift',
          _rank: 0,
          summary: null,
          description: null,
          currency_amount: '0.00',
          currency_amount_min: '5.00',
          currency_amount_max: '1000.00',
          discounted_amount: null,
          outside_fees: [],
          ticket_group_id: fx.groups.donation,
          event_template_category: 'donation',
          member_only: false,
          available: true,
        },
      ]);
      expect((await get(`/api/ticket_group/${fx.groups.general}`)).json().ticket_type).toBeUndefined();
      for (const id of [fx.groups.otherGeneral, fx.groups.hiddenGroup, '00000000-0000-4000-8000-000000000000']) {
        const miss = await get(`/api/ticket_group/${id}`);
        expect(miss.statusCode).toBe(404);
        expect(miss.json()._data[0]._code).toBe('ticket_group_not_found');
      }
      expect((await get('/api/ticket_group/123')).json()._data[0]._code).toBe('validation_failed');
    });

    it('image/{id} serves the stored bytes with their type and a long cache; 304 on a matching ETag', async () => {
      for (const prefix of ['/api', '/cached_api']) {
        const res = await get(`${prefix}/image/${fx.imageId}?sizex=544&sizey=432&shrinkonly=true`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.body).toBe(SVG);
        expect(res.headers.etag).toBe(`"${createHash('sha256').update(SVG).digest('hex')}"`);
      }
      const again = await app.inject({
        url: `/api/image/${fx.imageId}`,
        headers: { 'if-none-match': `"${createHash('sha256').update(SVG).digest('hex')}"` },
      });
      expect(again.statusCode).toBe(304);
      const missing = await get('/api/image/00000000-0000-4000-8000-000000000000');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()._data[0]._code).toBe('image_not_found');
      expect(missing.headers['cache-control']).toBe('no-store');
      expect((await get(`/api/image/${fx.imageId}?sizex=-3`)).statusCode).toBe(400);
      expect((await get('/api/image/logo.svg')).statusCode).toBe(400);
    });
  },
  async (h) => {
    fx = await insertFixtures(h.db);
    app = await fixtureApp(h.db, h.kind);
  },
);

import path from 'node:path';
import { expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { loadSellerFolder } from '../../server/catalog/loader';

/** The read API over the demo seller as the loader writes it (sessions for 120 days from NOW). */
const NOW = new Date('2026-05-04T13:00:00Z');
let app: FastifyInstance;
const get = (url: string) => app.inject({ url });

describeEachDatabase(
  'read API on the demo seller',
  () => {
    it('events/available lists the public events, members-only only when asked', async () => {
      const rows = (await get('/api/events/available?_seller=demo')).json().event_template._data;
      const categories = rows.map((e: { category: string }) => e.category);
      expect(categories).toEqual(
        expect.arrayContaining(['admission', 'exhibition', 'family', 'tour', 'performance', 'membership', 'donation', 'giftcard']),
      );
      expect(rows.every((e: { hidden_type: string }) => e.hidden_type === 'public_browsable')).toBe(true);
      const admission = rows.find((e: { category: string }) => e.category === 'admission');
      expect(Date.parse(admission.next_session_start)).toBeGreaterThanOrEqual(NOW.getTime());
      const members = (await get('/api/events/available?hidden_type._in=public_member_only')).json().event_template._data;
      expect(members.length).toBeGreaterThan(0);
      expect(members.every((e: { hidden_type: string }) => e.hidden_type === 'public_member_only')).toBe(true);
    });

    it('events/{id} embeds the ticket rules of its groups', async () => {
      const members = (await get('/api/events/available?hidden_type._in=public_member_only&_embed=ticket_group')).json();
      const late = members.event_template._data.find((e: { name: string }) => /curator/i.test(e.name));
      const detail = (await get(`/api/events/${late.id}?_embed=ticket_group,ticket_rule&hidden_type._in=public_member_only`)).json();
      expect(detail.ticket_rule._data).toEqual([expect.objectContaining({ named: 'yes', min: 1, max: 3, ticket_type_id: null })]);
      const groupIds = detail.ticket_group._data.map((g: { id: string }) => g.id);
      expect(groupIds).toContain(detail.ticket_rule._data[0].ticket_group_id);
      expect((await get(`/api/events/${late.id}`)).json().ticket_rule).toBeUndefined();
    });

    it('the admission calendar has 120 days with prices and sessions every 30 minutes', async () => {
      const events = (await get('/api/events/available?category=admission&_embed=ticket_group')).json();
      const id = events.event_template._data[0].id;
      const calendar = (await get(`/cached_api/events/${id}/calendar?_format=extended`)).json().calendar._data;
      expect(calendar).toHaveLength(120);
      expect(calendar[0].date).toBe('2026-05-04');
      const available = calendar.filter((d: { status: string }) => d.status === 'available');
      expect(available.length).toBeGreaterThan(100);
      for (const day of available) expect(day.min_price).toMatch(/^\d+\.\d{2}$/);
      const sessions = (await get(`/api/events/${id}/sessions?start_datetime._ondate=2026-05-05`)).json().event_session._data;
      expect(sessions.length).toBeGreaterThan(10);
      const starts = sessions.map((s: { start_datetime: string }) => Date.parse(s.start_datetime));
      expect(starts[1] - starts[0]).toBe(30 * 60_000);
      // Sessions of 2026-05-05 in New York (EDT) start after 04:00Z that day and before 04:00Z the next.
      expect(starts[0]).toBeGreaterThanOrEqual(Date.parse('2026-05-05T04:00:00Z'));
      expect(starts.at(-1)).toBeLessThan(Date.parse('2026-05-06T04:00:00Z'));
      const detail = (await get(`/api/events/${id}?_embed=ticket_group,ticket_type`)).json();
      expect(detail.ticket_group._data.some((g: { flexible: boolean }) => g.flexible)).toBe(true);
      expect(detail.ticket_group._data.some((g: { hidden_type: string }) => g.hidden_type === 'public_member_only')).toBe(false);
    });

    it('the donation group has a flexible price range', async () => {
      const events = (await get('/api/events/available?category=donation&_embed=ticket_group')).json();
      const group = events.ticket_group._data.find((g: { handler: string }) => g.handler === 'donation');
      const res = (await get(`/api/ticket_group/${group.id}?_embed=ticket_type`)).json();
      const type = res.ticket_type._data[0];
      expect(type.currency_amount_min).toMatch(/^\d+\.\d{2}$/);
      expect(type.currency_amount_max).toMatch(/^\d+\.\d{2}$/);
    });
  },
  async (h) => {
    await loadSellerFolder(h.db, path.resolve('sellers/demo'), { now: NOW });
    app = await buildApp({
      db: h.db,
      dbKind: h.kind,
      config: readConfig({ STATIC_DIR: '/nonexistent-static', READ_CACHE_MS: '0' }),
      now: () => NOW,
    });
  },
);

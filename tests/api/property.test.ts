import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { describeEachDatabase } from '../helpers/db';
import { testDeps } from '../helpers/app';
import { buildApp } from '../../server/app';
import { loadSellerFolder } from '../../server/catalog/loader';

/**
 * Generated bodies, queries and ids against every API route: never a 5xx, every refusal a 4xx with a
 * `_code`, and a refused request writes nothing (row counts of every table unchanged).
 */
const TABLES = [
  'seller',
  'venue',
  'image',
  'seat_map',
  'seat',
  'event_template',
  'ticket_group',
  'ticket_type',
  'ticket_rule',
  'message_rule',
  'event_session',
  'session_ticket_group',
  'identity',
  'app_user',
  'auth_session',
  'login_token',
  'cart',
  'ticket',
  'ticket_order',
  'payment',
  'scheduled_payment',
  'membership',
  'gift_code',
  'promo_code',
  'cart_code',
  'ledger',
  'ledger_entry',
  'mail_outbox',
];
const RUNS_PER_ROUTE = Number(process.env.PROPERTY_RUNS ?? 12);

describeEachDatabase('generated input never breaks the API', (ctx) => {
  let app: FastifyInstance & { apiRoutes?: Array<{ method: string; url: string }> };
  let knownIds: string[] = [];

  const counts = async () => {
    const select = TABLES.map((t) => `(select count(*) from ${t})::int as ${t}`).join(', ');
    const { rows } = await sql.raw<Record<string, number>>(`select ${select}`).execute(ctx().db);
    // used_capacity and balances are written by updates, not inserts: watch them too.
    const { rows: sums } = await sql
      .raw<Record<string, number>>(
        `select
      (select coalesce(sum(used_capacity), 0) from event_session)::int as session_used,
      (select coalesce(sum(used_capacity), 0) from session_ticket_group)::int as group_used,
      (select coalesce(sum(balance), 0) from ledger)::int as ledger_balance,
      (select count(*) from cart where state <> 'pending')::int as carts_not_pending`,
      )
      .execute(ctx().db);
    return { ...rows[0], ...sums[0] };
  };

  beforeAll(async () => {
    await loadSellerFolder(ctx().db, path.resolve('sellers/demo'));
    app = await buildApp(testDeps(ctx()));
    await app.ready();
    const ids = await ctx().db.selectFrom('event_template').select('id').limit(3).execute();
    const sessions = await ctx().db.selectFrom('event_session').select('id').limit(2).execute();
    knownIds = [...ids, ...sessions].map((r) => r.id);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('covers every API route', () => {
    expect(app.apiRoutes!.length).toBeGreaterThan(40);
  });

  it('answers generated requests with 2xx or a 4xx carrying _code, and refusals write nothing', async () => {
    const idArb = fc.oneof(
      fc.uuid(),
      fc.constantFrom(...knownIds, 'demo', '0', '-1', 'null', '%00', '..', 'a'.repeat(120)),
      fc.string({ maxLength: 40 }),
    );
    const valueArb = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer().map(String),
      fc.constantFrom('', 'T', 'F', 'true', '2026-02-30', '9999-12-31', 'venue,ticket_group', ...knownIds),
    );
    const queryArb = fc.dictionary(
      fc.constantFrom(
        '_seller',
        '_embed',
        '_limit',
        '_offset',
        '_sort',
        'category',
        'start_datetime._gte',
        'start_datetime._ondate',
        'ticket_group_id._in',
        'hidden_type._in',
        'time.start',
        '_format',
        'sold_out',
        'key._in',
        'x',
      ),
      valueArb,
      { maxKeys: 4 },
    );
    const bodyArb = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          add: fc.array(fc.record({ ticket_type_id: idArb, event_session_id: idArb, face_value: valueArb }), { maxLength: 3 }),
          tickets: fc.array(idArb, { maxLength: 3 }),
          email: valueArb,
          password: valueArb,
          amount: valueArb,
          gateway_id: valueArb,
        },
        { requiredKeys: [] },
      ),
    );

    for (const route of app.apiRoutes!) {
      await fc.assert(
        fc.asyncProperty(fc.array(idArb, { minLength: 3, maxLength: 3 }), queryArb, bodyArb, async (ids, query, body) => {
          let i = 0;
          const url = route.url.replace(/:[A-Za-z_]+\??/g, () => encodeURIComponent(ids[i++ % ids.length]));
          const before = await counts();
          const res = await app.inject({
            method: route.method as 'GET',
            url,
            query: query as Record<string, string>,
            // A client address of its own, so the rate limits of one route do not answer for another's inputs.
            remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
            headers: { 'x-ticketing-app': 'ecomm' },
            ...(route.method === 'GET' || route.method === 'DELETE'
              ? {}
              : {
                  payload: JSON.stringify(body),
                  headers: {
                    'content-type': 'application/json',
                    'x-ticketing-app': 'ecomm',
                  },
                }),
          });
          const what = `${route.method} ${url} ${JSON.stringify(query)} ${JSON.stringify(body).slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
          expect(res.statusCode, what).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(typeof res.json()._data?.[0]?._code, what).toBe('string');
            expect(await counts(), what).toEqual(before);
          }
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
  }, 600_000);
});

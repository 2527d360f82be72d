import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { describeEachDatabase } from '../helpers/db';
import { testDeps } from '../helpers/app';
import { buildApp } from '../../server/app';
import { loadSellerFolder } from '../../server/catalog/loader';
import { fuzzRoutes, requestArbitrary, send, type FuzzRoute } from '../helpers/fuzz';

/**
 * Requests generated from every operation's schemas in the OpenAPI document (tests/helpers/fuzz.ts), valid or with a
 * few values made hostile, against the demo seller: never a 5xx, every refusal a 4xx with a `_code`, and a refused
 * request writes nothing (row counts of every table unchanged). `npm test` sends 20 per operation on each database
 * (PROPERTY_RUNS for more); `npm run bench` runs 100,000 of them (bench/fuzz.ts).
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
  'test_gateway_charge',
];
const RUNS_PER_ROUTE = Number(process.env.PROPERTY_RUNS ?? 20);

describeEachDatabase('generated input never breaks the API', (ctx) => {
  let app: FastifyInstance;
  let routes: FuzzRoute[] = [];
  let known: string[] = [];
  let cookie: string | null = null;

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
    routes = fuzzRoutes((app as unknown as { swagger(): any }).swagger());
    // A guest with a cart: its cookie goes with every request, so the cart routes reach their rules.
    // An adult ticket of General Admission and one of its sessions from tomorrow on (the first session of any event
    // may be another event's: which one depends on the hour the suite runs).
    const type = await ctx()
      .db.selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
      .select(['ticket_type.id', 'ticket_group.event_template_id'])
      .where('ticket_type.key', '=', 'adult')
      .where('ticket_group.handler', '=', 'tickets')
      .where('event_template.key', '=', 'general-admission')
      .limit(1)
      .executeTakeFirstOrThrow();
    const session = await ctx()
      .db.selectFrom('event_session')
      .select('id')
      .where('event_template_id', '=', type.event_template_id)
      .where('start_datetime', '>', new Date(Date.now() + 86_400_000))
      .orderBy('start_datetime')
      .limit(1)
      .executeTakeFirstOrThrow();
    const cart = await app.inject({
      method: 'POST',
      url: '/api/cart/modify?_seller=demo',
      headers: { 'x-ticketing-app': 'ecomm' },
      payload: { add: [{ ticket_type_id: type.id, event_session_id: session.id }] },
    });
    const set = cart.cookies.find((c) => c.name === 'storefront_cart_owner');
    cookie = set ? `${set.name}=${set.value}` : null;
    const ids = await Promise.all(
      (['event_template', 'event_session', 'ticket_type', 'ticket_group', 'cart', 'seat'] as const).map((t) =>
        ctx().db.selectFrom(t).select('id').limit(4).execute(),
      ),
    );
    known = [...ids.flat().map((r) => r.id), cart.json().cart._data[0].id];
  });
  afterAll(async () => {
    await app?.close();
  });

  it('covers every API operation', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => r.body).length).toBeGreaterThan(15);
  });

  it('answers generated requests with 2xx or a 4xx carrying _code, and refusals write nothing', async () => {
    let sent = 0;
    const tally = new Map<string, number>();
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(
          requestArbitrary(route, () => known),
          async (req) => {
            const before = await counts();
            // An address of its own per request, so one route's rate limits do not answer for another's inputs.
            const r = await send(app, req, cookie, `10.9.${sent % 250}.${Math.floor(sent / 250) % 250}`);
            sent++;
            const key = `${r.status}${r.code ? ` ${r.code}` : ''}`;
            tally.set(key, (tally.get(key) ?? 0) + 1);
            expect(r.status, r.what).toBeLessThan(500);
            if (r.status >= 400) {
              expect(typeof r.code, r.what).toBe('string');
              expect(await counts(), r.what).toEqual(before);
            }
          },
        ),
        { numRuns: RUNS_PER_ROUTE },
      );
    }
    expect(sent).toBeGreaterThanOrEqual(routes.length * RUNS_PER_ROUTE);
    console.log(
      `[fuzz] ${sent} requests, ${routes.length} operations: ${JSON.stringify(Object.fromEntries([...tally].sort((a, b) => b[1] - a[1])))}`,
    );
    // Valid requests reach the services: some answers are successes, not only validation refusals.
    const ok = [...tally].filter(([k]) => k.startsWith('2')).reduce((n, [, c]) => n + c, 0);
    expect(ok).toBeGreaterThan(sent / 20);
  }, 900_000);
});

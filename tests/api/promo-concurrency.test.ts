import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { addPromo, usedOf } from '../helpers/promo-fixtures';
import { setUnsafeSkipPromoGuardForTests } from '../../server/services/cart/promo';

const CARD = { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } };

/**
 * 50 guests, each with a cart of one adult ticket, apply a code of one use (FIRSTVISIT's max_usage 1) and pay, all at
 * once. On PostgreSQL the requests run on a pool of connections, so the transactions truly overlap.
 */
describeEachDatabase('concurrent promo code uses', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  const db = () => ctx().db;
  let round = 0;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { slug: 'promorace' });
    app = await buildTestApp(testDeps(ctx()));
  });
  afterAll(async () => {
    setUnsafeSkipPromoGuardForTests(false);
    await app?.close();
  });

  async function race(n = 50) {
    const code = `FIRSTVISIT${++round}`;
    const promo = await addPromo(db(), fx, { code, type: 'percent', value: 20, maxUsage: 1 });
    const session = await addSession(db(), fx, { capacity: n * 2 });
    // Each buyer on an address of its own: one address's buyers are serialised by the hold limits' lock.
    const guests = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const b = new Browser(app, `10.61.${round}.${i + 1}`);
        const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
          add: [{ ticket_type_id: fx.types.adult, event_session_id: session }],
        });
        const user = await b.post(`/api/user?_seller=${fx.slug}`, {
          first_name: 'Race',
          last_name: `Guest ${i}`,
          email: `race${i}@example.org`,
          email_confirm: `race${i}@example.org`,
          zip_code: '10001',
        });
        expect([cart.status, user.status]).toEqual([200, 200]);
        return { b, cartId: cart.body.cart._data[0].id as string, identityId: user.body.identity._data[0].id as string };
      }),
    );
    const started = performance.now();
    const results = await Promise.all(
      guests.map(async (g) => {
        const applied = await g.b.post(`/api/cart/${g.cartId}/apply_code`, { codes: [code] });
        const cart = applied.status === 200 ? applied : await g.b.get(`/api/cart/${g.cartId}`);
        const paid = await g.b.post(`/api/cart/${g.cartId}/guest_checkout`, {
          amount: cart.body.cart._data[0].cart_fees.grand_totals.total_outstanding,
          gateway_id: 'test',
          gateway_data: CARD,
          guest_identity_id: g.identityId,
          send_email: false,
        });
        return { applied, paid };
      }),
    );
    const ms = Math.round(performance.now() - started);
    const orders = results.filter((r) => r.paid.status === 200).map((r) => r.paid.body.ticket_order._data[0]);
    const discounted = orders.filter((o) => o.total_discount !== '0.00');
    return { results, orders, discounted, ms, used: await usedOf(db(), promo.codeId) };
  }

  it('50 carts apply a one-use code and pay at once: exactly one order gets the discount', async () => {
    const { results, orders, discounted, ms, used } = await race();
    const exhausted = results.filter((r) => r.applied.status === 409 && r.applied.body._data[0]._code === 'code_exhausted');
    console.log(`[${ctx().kind}] guarded: 50 apply+pay in ${ms} ms, ${discounted.length} discounted of ${orders.length} orders`);
    expect(orders).toHaveLength(50);
    expect(discounted).toHaveLength(1);
    expect(discounted[0]).toMatchObject({ total_discount: '5.00', total_after_fees_price: '21.50' });
    expect(exhausted).toHaveLength(49);
    expect(used).toBe(1);
  }, 120_000);

  describe('control: the guard switched off', () => {
    it('observes the over-use the guard prevents', async () => {
      // The schema's CHECK (used <= max_usage) is a last-resort guard; the control removes it in this test's own schema
      // to see what the conditional update alone prevents.
      await sql`alter table promo_code drop constraint promo_code_usage_ck`.execute(db());
      setUnsafeSkipPromoGuardForTests(true);
      try {
        const { discounted, orders, ms, used } = await race();
        console.log(`[${ctx().kind}] unguarded control: 50 apply+pay in ${ms} ms, ${discounted.length} discounted of ${orders.length}`);
        expect(discounted.length).toBeGreaterThan(1);
        expect(used).toBeGreaterThan(1);
      } finally {
        setUnsafeSkipPromoGuardForTests(false);
      }
    }, 120_000);
  });
});

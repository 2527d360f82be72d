import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { addPromo, usedOf } from '../helpers/promo-fixtures';
import { sweepExpiredCarts } from '../../server/jobs/cart-sweeper';
import type { Deps } from '../../server/deps';

const CARD = { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } };

/** Promo codes (issue 13): apply_code, the prices and totals they give, their refusals, uses and the lookup. */
describeEachDatabase('promo codes', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let deps: Deps;
  const clock = testClock();
  const db = () => ctx().db;
  const code = (r: { body: any }) => r.body?._data?.[0]?._code;
  const totals = (r: { body: any }) => r.body.cart._data[0].cart_fees.grand_totals;
  let promos: Record<string, { modId: string; codeId: string }>;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { now: clock.now(), slug: 'promoshop' });
    deps = testDeps(ctx(), clock.now);
    app = await buildTestApp(deps);
    promos = {
      adult10: await addPromo(db(), fx, { code: 'ADULT10', type: 'percent', value: 10, ticketTypes: [fx.types.adult], advertise: true }),
      five: await addPromo(db(), fx, { code: 'FIVE', type: 'amount', value: 500 }),
      family: await addPromo(db(), fx, { code: 'FAMILYONLY', type: 'amount', value: 100, ticketTypes: [fx.types.family] }),
      once: await addPromo(db(), fx, { code: 'ONCE', type: 'percent', value: 20, maxUsage: 1 }),
      old: await addPromo(db(), fx, {
        code: 'OLDSALE',
        type: 'amount',
        value: 1000,
        validFrom: new Date(clock.now().getTime() - 86400_000 * 30),
        validTo: new Date(clock.now().getTime() - 86400_000),
      }),
    };
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A guest with 2 adults (25.00 + 1.50 fee each) and 1 child (15.00 + 10 %): 69.50 outstanding. */
  async function guest() {
    const b = new Browser(app);
    const session = await addSession(db(), fx, { from: clock.now() });
    const add = [fx.types.adult, fx.types.adult, fx.types.child].map((t) => ({ ticket_type_id: t, event_session_id: session }));
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, { add });
    expect(cart.status).toBe(200);
    return { b, session, cartId: cart.body.cart._data[0].id as string, cart };
  }
  /** The guest's purchaser details: the identity id its checkout names. */
  async function purchaserOf(g: { b: Browser }): Promise<string> {
    const r = await g.b.post(`/api/user?_seller=${fx.slug}`, {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.org',
      email_confirm: 'ada@example.org',
      zip_code: '10001',
    });
    expect(r.status).toBe(200);
    return r.body.identity._data[0].id;
  }
  const apply = (g: { b: Browser; cartId: string }, body: Record<string, unknown>, path = 'cart') =>
    g.b.post(`/api/${path}/${g.cartId}/apply_code?_embed=ticket_type`, body);

  it('a percent code on one ticket type: adjusted values, the line discount, cart_mods and the totals', async () => {
    const g = await guest();
    expect(totals(g.cart)).toMatchObject({ total_before_cartmod_price: '65.00', total_cartmod_amount: '0.00', total_outstanding: '69.50' });
    const r = await apply(g, { codes: [' adult10 '] });
    expect(r.status).toBe(200);
    expect(totals(r)).toMatchObject({ total_before_cartmod_price: '65.00', total_cartmod_amount: '5.00', total_outstanding: '64.50' });
    const adults = r.body.ticket._data.filter((t: any) => t.ticket_type_id === fx.types.adult);
    expect(adults.map((t: any) => [t.face_value, t.adjusted_value])).toEqual([
      ['25.00', '22.50'],
      ['25.00', '22.50'],
    ]);
    const child = r.body.ticket._data.find((t: any) => t.ticket_type_id === fx.types.child);
    expect(child.adjusted_value).toBe('15.00');
    const row = r.body.cart._data[0];
    expect(row.cart_mods).toEqual([
      expect.objectContaining({
        id: promos.adult10.modId,
        code: 'ADULT10',
        discount: '5.00',
        tickets_affected: 2,
        discount_type: 'percent',
      }),
    ]);
    const adultLine = row.items[0].types.find((t: any) => t.ticket_type_id === fx.types.adult);
    expect(adultLine).toMatchObject({ totalPrice: '45.00', discount: '5.00' });
    // GET cart shows the same; tickets added later get the discount too.
    const again = await g.b.post(`/api/cart/${g.cartId}/modify`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: g.session }],
    });
    expect(totals(again)).toMatchObject({ total_before_cartmod_price: '90.00', total_cartmod_amount: '7.50' });
  });

  it('the best single discount per ticket when codes overlap; an amount never goes below zero', async () => {
    const g = await guest();
    const r = await apply(g, { codes: ['ADULT10', 'FIVE'] });
    expect(r.status).toBe(200);
    // FIVE takes 5.00 off each ticket (more than 10 % of an adult's 25.00): 15.00 off in all.
    expect(totals(r)).toMatchObject({ total_cartmod_amount: '15.00' });
    expect(r.body.cart._data[0].cart_mods.map((m: any) => [m.code, m.tickets_affected])).toEqual([
      ['ADULT10', 0],
      ['FIVE', 3],
    ]);
  });

  it('refusals carry the spec codes and change nothing', async () => {
    const g = await guest();
    const unknown = await apply(g, { codes: ['NOPE'] });
    expect([unknown.status, code(unknown), unknown.body._data[0]._extra]).toEqual([404, 'code_not_found', { code: 'NOPE' }]);
    expect(code(await apply(g, { codes: ['OLDSALE'] }))).toBe('code_not_found');
    expect(code(await apply(g, { codes: ['X'] }))).toBe('validation_failed');
    expect(code(await apply(g, { codes: ['A'.repeat(36)] }))).toBe('validation_failed');
    const noBenefit = await apply(g, { codes: ['FAMILYONLY'] });
    expect([noBenefit.status, code(noBenefit)]).toEqual([409, 'no_code_benefit']);
    // require_benefit false puts it on all the same (the default code's form).
    expect((await apply(g, { codes: ['FAMILYONLY'], require_benefit: false })).status).toBe(200);
    expect((await apply(g, { codes: ['ADULT10'] })).status).toBe(200);
    const dup = await apply(g, { codes: ['adult10'] });
    expect([dup.status, code(dup)]).toEqual([409, 'duplicate_code']);
    // A failing code in a list refuses the whole list: FIVE did not stay.
    const mixed = await apply(g, { codes: ['FIVE', 'NOPE'] });
    expect(code(mixed)).toBe('code_not_found');
    const now = await g.b.get(`/api/cart/${g.cartId}`);
    expect(now.body.cart._data[0].cart_mods.map((m: any) => m.code).sort()).toEqual(['ADULT10', 'FAMILYONLY']);
    // ignore_errors skips the failing ones.
    const skipped = await apply(g, { codes: ['NOPE', 'FIVE'], ignore_errors: true });
    expect(skipped.status).toBe(200);
    expect(skipped.body.cart._data[0].cart_mods.map((m: any) => m.code).sort()).toEqual(['ADULT10', 'FAMILYONLY', 'FIVE']);
    // Another visitor cannot touch the cart.
    const stranger = new Browser(app);
    const denied = await stranger.post(`/api/cart/${g.cartId}/apply_code`, { codes: ['FIVE'] });
    expect(denied.status).toBe(403);
  });

  it('a code with one use: the second cart gets code_exhausted; removing, cancelling or expiry gives the use back', async () => {
    const a = await guest();
    const b = await guest();
    expect((await apply(a, { codes: ['ONCE'] })).status).toBe(200);
    expect(await usedOf(db(), promos.once.codeId)).toBe(1);
    const refused = await apply(b, { codes: ['ONCE'] });
    expect([refused.status, code(refused)]).toEqual([409, 'code_exhausted']);

    const removed = await apply(a, { codes: [], remove_codes: ['once'] });
    expect(removed.status).toBe(200);
    expect(totals(removed).total_cartmod_amount).toBe('0.00');
    expect(removed.body.ticket._data.every((t: any) => t.adjusted_value === t.face_value)).toBe(true);
    expect(await usedOf(db(), promos.once.codeId)).toBe(0);

    expect((await apply(b, { codes: ['ONCE'] })).status).toBe(200);
    expect((await b.b.delete(`/api/cart/${b.cartId}`)).status).toBe(200);
    expect(await usedOf(db(), promos.once.codeId)).toBe(0);

    const c = await guest();
    expect((await apply(c, { codes: ['ONCE'] })).status).toBe(200);
    clock.advance(901);
    await sweepExpiredCarts(deps);
    expect(await usedOf(db(), promos.once.codeId)).toBe(0);
    // A second sweep gives nothing back twice.
    await sweepExpiredCarts(deps);
    expect(await usedOf(db(), promos.once.codeId)).toBe(0);
  });

  it('an expired cart that pays late takes its use again, or loses the code when it was used up meanwhile', async () => {
    const late = await guest();
    const purchaser = await purchaserOf(late);
    const applied = await apply(late, { codes: ['ONCE'] });
    const due = totals(applied).total_outstanding;
    clock.advance(901);
    await sweepExpiredCarts(deps);
    const other = await guest();
    expect((await apply(other, { codes: ['ONCE'] })).status).toBe(200);
    const r = await late.b.post(`/api/cart/${late.cartId}/guest_checkout`, {
      amount: due,
      gateway_id: 'test',
      gateway_data: CARD,
      guest_identity_id: purchaser,
    });
    expect([r.status, code(r)]).toEqual([400, 'payment_amount_incorrect']);
    expect(await usedOf(db(), promos.once.codeId)).toBe(1);
    await other.b.delete(`/api/cart/${other.cartId}`);
  });

  it('paying: the order keeps the discount (total_discount, total_after_fees_price) and the use stays taken', async () => {
    const g = await guest();
    const purchaser = await purchaserOf(g);
    const applied = await apply(g, { codes: ['ONCE'] }, 'my/cart');
    expect(applied.status).toBe(200);
    // 20 % of 65.00; fees stay on the price before the code.
    expect(totals(applied)).toMatchObject({ total_cartmod_amount: '13.00', total_outstanding: '56.50' });
    const paid = await g.b.post(`/api/cart/${g.cartId}/guest_checkout`, {
      amount: '56.50',
      gateway_id: 'test',
      gateway_data: CARD,
      guest_identity_id: purchaser,
    });
    expect(paid.status).toBe(200);
    const order = paid.body.ticket_order._data[0];
    expect(order).toMatchObject({ total_before_fees_price: '65.00', total_discount: '13.00', total_after_fees_price: '56.50' });
    const read = await g.b.get(`/api/ticket_order/${order.id}`, { 'x-order-access-token': order.access_token });
    expect(read.body.ticket_order._data[0]).toMatchObject({ total_discount: '13.00', total_after_fees_price: '56.50' });
    expect(await usedOf(db(), promos.once.codeId)).toBe(1);
    // A booked cart takes no more codes.
    expect(code(await apply(g, { codes: ['FIVE'] }))).toBe('cart_booked');
  });

  it("the cart update's code forms: apply_code, apply_code_before and apply_code_default, in the same transaction", async () => {
    const b = new Browser(app);
    const session = await addSession(db(), fx, { from: clock.now() });
    const adult = { ticket_type_id: fx.types.adult, event_session_id: session };
    // A refused apply_code takes the whole update back: no cart, no hold.
    const refused = await b.post(`/api/cart/modify?_seller=${fx.slug}`, { add: [adult], apply_code: { codes: ['NOPE'] } });
    expect([refused.status, code(refused)]).toEqual([404, 'code_not_found']);
    const held = await db().selectFrom('event_session').select('used_capacity').where('id', '=', session).executeTakeFirstOrThrow();
    expect(held.used_capacity).toBe(0);
    const made = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [adult],
      apply_code: { codes: ['ADULT10'] },
      apply_code_default: { codes: ['NOPE', 'FAMILYONLY'] },
    });
    expect(made.status).toBe(200);
    expect(made.body.cart._data[0].cart_mods.map((m: any) => m.code).sort()).toEqual(['ADULT10', 'FAMILYONLY']);
    expect(totals(made).total_cartmod_amount).toBe('2.50');
    const cartId = made.body.cart._data[0].id;
    // Before the adds: no benefit asked for, and the tickets added with it are priced under it.
    const before = await b.post(`/api/cart/${cartId}/modify`, { apply_code_before: { codes: ['FIVE'] }, add: [adult] });
    expect(before.status).toBe(200);
    expect(totals(before)).toMatchObject({ total_before_cartmod_price: '50.00', total_cartmod_amount: '10.00' });
  });

  it('wrong codes from one address are limited (429 rate_limited with Retry-After); codes that work do not count', async () => {
    const g = await guest();
    const far = new Browser(app, '10.62.0.1');
    const cart = await far.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: g.session }],
    });
    const cartId = cart.body.cart._data[0].id;
    for (let i = 0; i < 30; i++) {
      expect(code(await far.post(`/api/cart/${cartId}/apply_code`, { codes: [`GUESS${i}`] }))).toBe('code_not_found');
      expect((await far.get(`/api/code/GUESS${i}?_seller=${fx.slug}`)).status).toBe(404);
    }
    const limited = await far.post(`/api/cart/${cartId}/apply_code`, { codes: ['ADULT10'] });
    expect([limited.status, code(limited)]).toEqual([429, 'rate_limited']);
    expect(Number(limited.res.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await apply(g, { codes: ['ADULT10'] })).status).toBe(200);
  });

  describe('GET code/{code}', () => {
    it('answers the cart mod and its ticket types; 404 code_not_found for unknown and out-of-date codes', async () => {
      const b = new Browser(app);
      const r = await b.get(`/api/code/adult10?_seller=${fx.slug}&mode=advertise,code`);
      expect(r.status).toBe(200);
      expect(r.body.code._data[0]).toMatchObject({ code: 'ADULT10', exhausted: false });
      expect(r.body.cart_mod._data[0]).toMatchObject({ id: promos.adult10.modId, discount_type: 'percent', discount: '10' });
      expect(r.body.ticket_type._data.map((t: any) => t.id)).toEqual([fx.types.adult]);
      const five = await b.get(`/api/code/FIVE?_seller=${fx.slug}`);
      expect(five.body.cart_mod._data[0].discount).toBe('5.00');
      expect(five.body.ticket_type._data).toEqual([]);
      // `advertise` alone finds only advertised codes.
      expect((await b.get(`/api/code/FIVE?_seller=${fx.slug}&mode=advertise`)).status).toBe(404);
      expect((await b.get(`/api/code/ADULT10?_seller=${fx.slug}&mode=advertise`)).status).toBe(200);
      for (const c of ['NOPE', 'OLDSALE']) {
        const miss = await b.get(`/api/code/${c}?_seller=${fx.slug}`);
        expect([miss.status, code(miss)]).toEqual([404, 'code_not_found']);
      }
    });
  });
});

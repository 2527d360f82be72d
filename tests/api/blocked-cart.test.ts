import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testDeps } from '../helpers/app';
import { insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';

const CARD = { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } };

/**
 * Blocked carts (issue 13; spec section 6 'block reason code_required'): a cart mod marked blocking_checkout holds up
 * carts with the tickets it covers until one of its codes, or a code of its activating code groups, is on the cart.
 */
describeEachDatabase('blocked carts', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let blockingModId: string;
  const db = () => ctx().db;
  let n = 0;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { slug: 'blockshop' });
    const mod = async (key: string, extra: Record<string, unknown>) =>
      (
        await db()
          .insertInto('cart_mod')
          .values({
            seller_id: fx.sellerId,
            key,
            name: key === 'preview' ? 'Press preview' : 'Press pass',
            discount_type: 'amount',
            discount_value: 0,
            ticket_type_ids: JSON.stringify([fx.types.adult]),
            activating_code_groups: '[]',
            ...extra,
          } as never)
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    blockingModId = await mod('preview', { blocking_checkout: true, activating_code_groups: JSON.stringify(['press']) });
    const pressMod = await mod('press-pass', { discount_type: 'percent', discount_value: 10 });
    await db()
      .insertInto('promo_code')
      .values([
        { seller_id: fx.sellerId, code: 'PREVIEW-OWN', cart_mod_id: blockingModId, max_usage: -1 },
        { seller_id: fx.sellerId, code: 'PRESS2026', cart_mod_id: pressMod, code_group: 'press', max_usage: -1 },
        { seller_id: fx.sellerId, code: 'OTHERGROUP', cart_mod_id: pressMod, code_group: 'friends', max_usage: -1 },
      ] as never)
      .execute();
    app = await buildTestApp(testDeps(ctx()));
  });
  afterAll(async () => {
    await app?.close();
  });

  async function guestCart(type: string) {
    const b = new Browser(app, `10.79.0.${++n}`);
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, { add: [{ ticket_type_id: type, event_session_id: fx.sessionId }] });
    expect(cart.status).toBe(200);
    const user = await b.post(`/api/user?_seller=${fx.slug}`, {
      first_name: 'Block',
      last_name: `Guest ${n}`,
      email: `block${n}@example.org`,
      email_confirm: `block${n}@example.org`,
      zip_code: '10001',
    });
    const cartId = cart.body.cart._data[0].id as string;
    const pay = async () => {
      const row = (await b.get(`/api/cart/${cartId}`)).body.cart._data[0];
      return b.post(`/api/cart/${cartId}/guest_checkout`, {
        amount: row.cart_fees.grand_totals.total_outstanding,
        gateway_id: 'test',
        gateway_data: CARD,
        guest_identity_id: user.body.identity._data[0].id,
        send_email: false,
      });
    };
    return { b, cartId, pay };
  }

  it('a covered ticket holds the cart up: GET cart names the rule and the checkout refuses it before any charge', async () => {
    const g = await guestCart(fx.types.adult);
    const row = (await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0];
    expect(row.blocking_rules).toEqual([{ cart_mod_id: blockingModId, name: 'Press preview', block_reason: 'code_required' }]);
    const refused = await g.pay();
    expect(refused.status).toBe(403);
    expect(refused.body._data[0]).toMatchObject({
      _code: 'rule_blocks_checkout',
      _extra: { block_reason: 'code_required', cart_mod_id: blockingModId },
    });
    const attempts = await db().selectFrom('payment').select('id').where('cart_id', '=', g.cartId).execute();
    expect(attempts).toHaveLength(0);
    expect((await g.b.get(`/api/cart/${g.cartId}`)).body.cart._data[0].state).toBe('pending');
  });

  it('a code of another group or an unknown code leaves it held; a code of the activating group lifts it', async () => {
    const g = await guestCart(fx.types.adult);
    const wrong = await g.b.post(`/api/cart/${g.cartId}/apply_code`, { codes: ['NOPE99'], require_benefit: false });
    expect(wrong.body._data[0]._code).toBe('code_not_found');
    const other = await g.b.post(`/api/cart/${g.cartId}/apply_code`, { codes: ['OTHERGROUP'], require_benefit: false });
    expect(other.status).toBe(200);
    expect(other.body.cart._data[0].blocking_rules).toHaveLength(1);
    const lifted = await g.b.post(`/api/cart/${g.cartId}/apply_code`, { codes: ['PRESS2026'], require_benefit: false });
    expect(lifted.status).toBe(200);
    expect(lifted.body.cart._data[0].blocking_rules).toBeUndefined();
    const paid = await g.pay();
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  });

  it("the rule's own code lifts it too; tickets it does not cover are never held", async () => {
    const g = await guestCart(fx.types.adult);
    expect((await g.b.post(`/api/cart/${g.cartId}/apply_code`, { codes: ['preview-own'], require_benefit: false })).status).toBe(200);
    expect((await g.pay()).status).toBe(200);
    const child = await guestCart(fx.types.child);
    expect((await child.b.get(`/api/cart/${child.cartId}`)).body.cart._data[0].blocking_rules).toBeUndefined();
    expect((await child.pay()).status).toBe(200);
  });
});

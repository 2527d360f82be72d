import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Db, DbHandle } from '../../server/db';
import type { Deps } from '../../server/deps';
import { signOrder } from '../../server/services/manage-link';
import { MANAGE_SIGNATURE_HEADER } from '../../src/contract/manage-link';
import { Browser, buildTestApp, testClock, testDeps } from './app';
import { loadDemo } from './auth';

/**
 * Orders of the demo seller bought through the API as the storefront buys them (issue 17's self-service tests): a
 * cart, the purchaser, the checkout with the test gateway's card (or a gift card first), each buyer from an address
 * of its own so the hold limits never get in the way.
 */
export const TEST_CARD = { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } };
export const SELLER = '_seller=demo';

export interface DemoOrder {
  /** the buying browser (its owner cookie) */
  b: Browser;
  orderId: string;
  cartId: string;
  ticketIds: string[];
}

let serial = 0;

export function demoOrders(app: () => FastifyInstance, db: () => Db) {
  /** A ticket type of a demo event, by the event's and the type's names. */
  async function typeOf(event: string, type: string) {
    return db()
      .selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
      .select(['ticket_type.id', 'event_template.id as eventId', 'ticket_type.ticket_group_id as groupId'])
      .where('event_template.name', '=', event)
      .where('ticket_type.name', '=', type)
      .executeTakeFirstOrThrow();
  }

  /** The event's sessions, in time order. */
  async function sessionsOf(eventId: string) {
    const rows = await db()
      .selectFrom('event_session')
      .select(['id', 'start_datetime', 'price_increase'])
      .where('event_template_id', '=', eventId)
      .orderBy('start_datetime')
      .execute();
    return rows.map((s) => ({ id: s.id, start: new Date(s.start_datetime), priceIncrease: s.price_increase }));
  }

  /** A guest buys `count` tickets of a type for a session; a gift card, when given, pays `giftAmount` of it first. */
  async function buy(
    sessionId: string,
    typeId: string,
    count = 1,
    opts: { email?: string; giftCard?: { number: string; amount: string } } = {},
  ): Promise<DemoOrder> {
    const n = ++serial;
    const b = new Browser(app(), `10.88.${Math.floor(n / 200)}.${(n % 200) + 1}`);
    const add = Array.from({ length: count }, () => ({ ticket_type_id: typeId, event_session_id: sessionId }));
    const cart = await b.post(`/api/cart/modify?${SELLER}`, { add });
    expect(cart.status, JSON.stringify(cart.body)).toBe(200);
    const email = opts.email ?? `edit${n}@example.com`;
    const user = await b.post(`/api/user?${SELLER}`, { first_name: 'Eda', last_name: `Editor ${n}`, email, email_confirm: email });
    const cartId = cart.body.cart._data[0].id as string;
    const guest = user.body.identity._data[0].id as string;
    if (opts.giftCard) {
      const part = await b.post(`/api/cart/${cartId}/guest_checkout`, {
        amount: opts.giftCard.amount,
        gateway_id: 'ledger',
        gateway_data: { number: opts.giftCard.number },
        guest_identity_id: guest,
        send_email: true,
      });
      expect(part.status, JSON.stringify(part.body)).toBe(200);
    }
    const now = await b.get(`/api/cart/${cartId}`);
    const paid = await b.post(`/api/cart/${cartId}/guest_checkout`, {
      amount: now.body.cart._data[0].cart_fees.grand_totals.total_outstanding,
      gateway_id: 'test',
      gateway_data: TEST_CARD,
      guest_identity_id: guest,
      send_email: true,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    return {
      b,
      cartId,
      orderId: paid.body.ticket_order._data[0].id,
      ticketIds: paid.body.ticket._data.map((t: { id: string }) => t.id),
    };
  }

  /** The signed manage link's header for an order (what the e-mail's link proves). */
  async function signed(orderId: string) {
    const s = await db()
      .selectFrom('seller')
      .innerJoin('ticket_order', 'ticket_order.seller_id', 'seller.id')
      .select('seller.manage_link_secret')
      .where('ticket_order.id', '=', orderId)
      .executeTakeFirstOrThrow();
    return { [MANAGE_SIGNATURE_HEADER]: signOrder(s.manage_link_secret, orderId) };
  }

  /** What a session has sold and holds (its counter). */
  async function used(sessionId: string) {
    return (await db().selectFrom('event_session').select('used_capacity').where('id', '=', sessionId).executeTakeFirstOrThrow())
      .used_capacity;
  }

  /** Sets the demo seller's self_edit_rules (merged over the current ones). */
  async function setRules(rules: Record<string, unknown>) {
    const seller = await db().selectFrom('seller').select(['id', 'config']).where('slug', '=', 'demo').executeTakeFirstOrThrow();
    await db()
      .updateTable('seller')
      .set({ config: JSON.stringify({ ...seller.config, self_edit_rules: { ...seller.config.self_edit_rules, ...rules } }) })
      .where('id', '=', seller.id)
      .execute();
  }

  return { typeOf, sessionsOf, buy, signed, used, setRules };
}

export const TOUR = 'Behind the Scenes: Conservation Studio Tour';
/** A Monday morning in New York: the first tour is 26 hours ahead (Tuesday 11:00), beyond the demo's 24-hour horizon. */
export const DEMO_NOW = new Date('2026-05-04T13:00:00Z');

/**
 * One test file's demo: the seller loaded at DEMO_NOW, the app as served on a clock the tests may move, and the tour's
 * Adult type with its sessions more than two days ahead, the 11:00 ones (`plain`) and the 5.00 pricier 14:00 ones
 * (`peak`). The properties are there once the file's beforeAll has run.
 */
export function demoSelfService(ctx: () => DbHandle) {
  const clock = testClock(DEMO_NOW);
  const env = {
    clock,
    orders: demoOrders(
      () => env.app,
      () => ctx().db,
    ),
  } as {
    clock: typeof clock;
    orders: ReturnType<typeof demoOrders>;
    app: FastifyInstance;
    deps: Deps;
    sellerId: string;
    adult: { id: string; eventId: string; groupId: string };
    plain: string[];
    peak: string[];
  };
  beforeAll(async () => {
    env.sellerId = await loadDemo(ctx().db, clock.now());
    env.deps = testDeps(ctx(), clock.now);
    env.app = await buildTestApp(env.deps);
    env.adult = await env.orders.typeOf(TOUR, 'Adult');
    const later = (await env.orders.sessionsOf(env.adult.eventId)).filter(
      (s) => s.start.getTime() > clock.now().getTime() + 48 * 3_600_000,
    );
    env.plain = later.filter((s) => s.priceIncrease === 0).map((s) => s.id);
    env.peak = later.filter((s) => s.priceIncrease === 500).map((s) => s.id);
  });
  afterAll(async () => {
    await env.app?.close();
  });
  return env;
}

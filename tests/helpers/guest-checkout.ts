import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db';
import { Browser } from './app';
import { addSession, type CartFixture } from './cart-fixtures';

/** The test gateway's card that pays. */
export const TEST_CARD_OK = { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } };

/** A guest browser with a cart of one adult ticket and a purchaser; `pay` checks it out by the test gateway. */
export async function guestCartToPay(app: FastifyInstance, db: Db, fx: CartFixture, now: Date, email = 'ada@example.org') {
  const b = new Browser(app);
  const session = await addSession(db, fx, { from: now });
  const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
    add: [{ ticket_type_id: fx.types.adult, event_session_id: session }],
  });
  expect(cart.status).toBe(200);
  const user = await b.post(`/api/user?_seller=${fx.slug}`, { first_name: 'Ada', last_name: 'Lovelace', email });
  expect(user.status).toBe(200);
  const row = cart.body.cart._data[0];
  const cartId = row.id as string;
  const identityId = user.body.identity._data[0].id as string;
  return {
    b,
    cartId,
    identityId,
    pay: (extra: Record<string, unknown> = {}) =>
      b.post(`/api/cart/${cartId}/guest_checkout`, {
        amount: row.cart_fees.grand_totals.total_outstanding,
        gateway_id: 'test',
        gateway_data: TEST_CARD_OK,
        guest_identity_id: identityId,
        send_email: true,
        ...extra,
      }),
  };
}

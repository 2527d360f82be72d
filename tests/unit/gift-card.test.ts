import { describe, expect, it } from 'vitest';
import { fakeServer, route, type Handler } from '../helpers/fake-api';
import { CartStore } from '../../src/stores/CartStore';
import { CheckoutStore } from '../../src/stores/CheckoutStore';
import { GiftCardStore } from '../../src/stores/GiftCardStore';
import { giftCardNumberProblem, giftCardPlan, normaliseGiftCardNumber } from '../../src/domain/gift-card';

const CART = '11111111-1111-4111-8111-111111111111';
const USER = '44444444-4444-4444-8444-444444444444';

function cartBody(outstanding: string, paid: Array<{ number: string; amount: string; left: string }> = []) {
  return {
    status: 200,
    data: {
      cart: {
        _count: 1,
        _data: [
          {
            id: CART,
            cart_number: '7',
            state: 'pending',
            expires_in: 900,
            cart_fees: {
              gateway_id: 'test',
              account_id: 's',
              grand_totals: {
                total_before_cartmod_price: '60.00',
                total_fee_fixed_outside: '3.00',
                total_fee_percent_outside: '0.00',
                total_cartmod_amount: '0.00',
                total_payments: (63 - Number(outstanding)).toFixed(2),
                total_outstanding: outstanding,
              },
            },
            items: [],
            ticket_order_ids: [],
            gift_card_payments: paid.map((p, i) => ({
              payment_id: `p${i}`,
              card_number: p.number,
              payment_amount: p.amount,
              remaining_balance: p.left,
            })),
          },
        ],
      },
      ticket: { _count: 0, _data: [] },
    },
  };
}
const ledger = (number: string, balance: string, state = 'active') => ({
  status: 200,
  data: { ledger: { _count: 1, _data: [{ number, ledger_type: 'giftcard', state, balance, currency: 'USD' }] } },
});
const refusal = (status: number, code: string, extra?: Record<string, unknown>) => ({
  status,
  data: { _data: [{ _code: code, _context: 'payment', ...(extra ? { _extra: extra } : {}) }] },
});
const booked = { status: 200, data: { ticket_order: { _count: 1, _data: [{ id: 'order-1', access_token: 'a'.repeat(32) }] } } };

function setup(handler: Handler, outstanding = '63.00') {
  const server = fakeServer(handler);
  const cart = new CartStore({ api: server.api, storage: null, sellerKey: 's' });
  cart.accept(cartBody(outstanding).data as never);
  const gift = new GiftCardStore({ api: server.api, cart });
  const checkout = new CheckoutStore({ api: server.api, cart, tokenStorage: null, intents: null });
  return { cart, gift, checkout, ...server };
}

describe('gift card rules', () => {
  it('a number is required, at most 70 characters, trimmed and upper case', () => {
    expect(giftCardNumberProblem('  ')).toBe('required');
    expect(giftCardNumberProblem('A'.repeat(70))).toBeNull();
    expect(giftCardNumberProblem(` ${'A'.repeat(71)} `)).toBe('too_long');
    expect(normaliseGiftCardNumber(' gc-2026-0050 ')).toBe('GC-2026-0050');
  });
  it('each card pays as much of what is still owed as it holds; the rest is left for the card', () => {
    expect(giftCardPlan(4000, [2500])).toEqual({ payments: [2500], rest: 1500 });
    expect(giftCardPlan(1000, [5000])).toEqual({ payments: [1000], rest: 0 });
    expect(giftCardPlan(6300, [2000, 5000, 1000])).toEqual({ payments: [2000, 4300, 0], rest: 0 });
    expect(giftCardPlan(0, [500])).toEqual({ payments: [0], rest: 0 });
  });
});

describe('GiftCardStore', () => {
  it('looks a card up and lists it with its part; refuses unknown, empty, inactive and repeated cards', async () => {
    const { gift, seen } = setup((c) => {
      const r = route(c);
      if (r === 'GET ledger/giftcard/GC-1') return ledger('GC-1', '25.00');
      if (r === 'GET ledger/giftcard/GC-0') return ledger('GC-0', '0.00');
      if (r === 'GET ledger/giftcard/GC-V') return ledger('GC-V', '10.00', 'void');
      return refusal(404, 'gift_card_not_found');
    });
    gift.setInput('');
    expect(await gift.apply()).toBe(false);
    expect(gift.error?.key).toBe('giftCard.errors.required');
    gift.setInput('x'.repeat(71));
    expect(await gift.apply()).toBe(false);
    expect(gift.error).toEqual({ key: 'giftCard.errors.maxLength', values: { limit: 70 } });
    expect(seen).toHaveLength(0);

    gift.setInput(' gc-1 ');
    expect(await gift.apply()).toBe(true);
    expect(gift.pending).toEqual([{ number: 'GC-1', balance: 2500 }]);
    expect(gift.plan).toEqual({ payments: [2500], rest: 3800 });
    expect(gift.coversOrder).toBe(false);
    expect(gift.status).toEqual({ key: 'giftCard.applied', values: { number: 'GC-1' } });
    expect(gift.input).toBe('');

    gift.setInput('GC-1');
    expect(await gift.apply()).toBe(false);
    expect(gift.error?.key).toBe('giftCard.errors.applied');
    gift.setInput('GC-0');
    await gift.apply();
    expect(gift.error?.key).toBe('giftCard.errors.empty');
    gift.setInput('GC-V');
    await gift.apply();
    expect(gift.error?.key).toBe('giftCard.errors.empty');
    gift.setInput('NOPE');
    await gift.apply();
    expect(gift.error?.key).toBe('giftCard.errors.notFound');
    expect(gift.pending).toHaveLength(1);
    gift.remove('GC-1');
    expect(gift.pending).toEqual([]);
    expect(gift.status).toEqual({ key: 'giftCard.removed', values: { number: 'GC-1' } });
  });

  it('a card already charged on the cart counts as applied', async () => {
    const { gift, cart } = setup(() => ledger('GC-1', '5.00'));
    cart.accept(cartBody('43.00', [{ number: 'GC-1', amount: '20.00', left: '5.00' }]).data as never);
    gift.setInput('gc-1');
    expect(await gift.apply()).toBe(false);
    expect(gift.error?.key).toBe('giftCard.errors.applied');
    expect(gift.charged).toHaveLength(1);
  });
});

describe('CheckoutStore with gift cards', () => {
  const identity = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', email_confirm: 'ada@example.com' };
  const card = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

  function checkoutServer(onCheckout: (body: Record<string, unknown>) => { status: number; data: unknown }) {
    const bodies: Array<Record<string, unknown>> = [];
    const balances: Record<string, string> = { 'GC-20': '20.00', 'GC-50': '50.00' };
    const store = setup((c) => {
      const r = route(c);
      if (r === 'POST user') return { status: 200, data: { identity: { _count: 1, _data: [{ id: USER, identity_id: USER }] } } };
      if (r.startsWith('GET ledger/giftcard/')) {
        const n = decodeURIComponent(r.split('/').pop()!);
        return ledger(n, balances[n]);
      }
      if (r === `POST cart/${CART}/guest_checkout`) {
        const body = JSON.parse(c.data);
        bodies.push(body);
        return onCheckout(body);
      }
      return cartBody('63.00');
    });
    return { ...store, bodies };
  }

  it('charges each card its part first, then the card pays the rest: one order', async () => {
    const { gift, checkout, bodies } = checkoutServer((b) =>
      b.gateway_id === 'ledger' ? cartBody('43.00', [{ number: 'GC-20', amount: '20.00', left: '0.00' }]) : booked,
    );
    gift.setInput('GC-20');
    await gift.apply();
    const outcome = await checkout.submit(identity, card, { giftCards: gift });
    expect(outcome).toEqual({ kind: 'completed', orderIds: ['order-1'] });
    expect(bodies.map((b) => [b.gateway_id, b.amount, b.gateway_data])).toEqual([
      ['ledger', '20.00', { number: 'GC-20' }],
      ['test', '43.00', { card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } }],
    ]);
    expect(bodies.every((b) => b.guest_identity_id === USER)).toBe(true);
    expect(gift.pending).toEqual([]);
  });

  it('cards that cover the order book it with no card payment', async () => {
    const { gift, checkout, bodies } = checkoutServer((b) =>
      b.amount === '20.00' ? cartBody('43.00', [{ number: 'GC-20', amount: '20.00', left: '0.00' }]) : booked,
    );
    for (const n of ['GC-20', 'GC-50']) {
      gift.setInput(n);
      await gift.apply();
    }
    expect(gift.coversOrder).toBe(true);
    expect(gift.plan).toEqual({ payments: [2000, 4300], rest: 0 });
    expect(await checkout.submit(identity, null, { giftCards: gift })).toEqual({ kind: 'completed', orderIds: ['order-1'] });
    expect(bodies.map((b) => [b.gateway_id, b.amount, b.send_email])).toEqual([
      ['ledger', '20.00', true],
      ['ledger', '43.00', true],
    ]);
  });

  it('a card refused while paying comes off the list with its reason; no card payment is tried', async () => {
    const { gift, checkout, bodies } = checkoutServer(() => refusal(409, 'gift_card_balance_insufficient', { balance: 500 }));
    gift.setInput('GC-20');
    await gift.apply();
    expect(await checkout.submit(identity, card, { giftCards: gift })).toEqual({ kind: 'failed' });
    expect(bodies).toHaveLength(1);
    expect(gift.pending).toEqual([]);
    expect(gift.error).toEqual({ key: 'giftCard.errors.balanceChanged', values: { number: 'GC-20' } });
    expect(checkout.failure).toBeNull();
  });
});

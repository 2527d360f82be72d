import { describe, expect, it } from 'vitest';
import { addedItems, ecommerceItems, itemsValue } from '../../src/domain/ecommerce-items';
import { toEcommerceEvent } from '../../src/analytics/ecommerce';
import { flagsPollMs, resolvedFlags } from '../../src/domain/flags';

type TypeLine = { id: string; name: string; count: number; total: string; face?: string; discount?: string };
const item = (name: string, category: string, types: TypeLine[]) => ({
  name,
  category,
  types: types.map((t) => ({
    ticket_type_id: t.id,
    ticket_type_name: t.name,
    ticket_group_name: 'General',
    ticketCount: t.count,
    totalPrice: t.total,
    ...(t.face !== undefined ? { totalFaceValue: t.face } : {}),
    ...(t.discount !== undefined ? { discount: t.discount } : {}),
  })),
});

describe('ecommerce items (spec section 9: average adjusted value per ticket type, discount = face - adjusted)', () => {
  it('prices a type at the average adjusted value of its tickets and its discount at face minus adjusted', () => {
    // 3 adults, face 25.00 each; a promo took 5.00 off one of them: adjusted 70.00 in all.
    const items = ecommerceItems([
      item('General Admission', 'admission', [{ id: 'adult', name: 'Adult', count: 3, total: '70.00', face: '75.00' }]),
    ]);
    expect(items).toEqual([
      {
        item_id: 'adult',
        item_name: 'General Admission',
        item_category: 'admission',
        item_variant: 'Adult',
        price: 23.33,
        discount: 1.67,
        quantity: 3,
      },
    ]);
  });

  it('merges one type bought for two sessions into one item, averaging over all its tickets', () => {
    const items = ecommerceItems([
      item('General Admission', 'admission', [{ id: 'adult', name: 'Adult', count: 2, total: '50.00', face: '50.00' }]),
      item('General Admission', 'admission', [
        { id: 'adult', name: 'Adult', count: 2, total: '40.00', face: '50.00' },
        { id: 'child', name: 'Child', count: 1, total: '0.00', face: '12.00' },
      ]),
    ]);
    expect(items.map((i) => [i.item_id, i.price, i.discount, i.quantity])).toEqual([
      ['adult', 22.5, 2.5, 4],
      ['child', 0, 12, 1],
    ]);
    expect(itemsValue(items)).toBe(90);
  });

  it('without the face value, the promo discount separates face from adjusted; no discount is never negative', () => {
    const items = ecommerceItems([
      item('Tour', 'tour', [
        { id: 'a', name: 'A', count: 2, total: '30.00', discount: '6.00' },
        { id: 'b', name: 'B', count: 1, total: '9.00', face: '8.00' },
      ]),
    ]);
    expect(items.map((i) => [i.item_id, i.price, i.discount])).toEqual([
      ['a', 15, 3],
      ['b', 9, 0],
    ]);
  });

  it('add and remove events carry only the change in quantity', () => {
    const before = [item('GA', 'admission', [{ id: 'adult', name: 'Adult', count: 1, total: '25.00', face: '25.00' }])];
    const after = [
      item('GA', 'admission', [
        { id: 'adult', name: 'Adult', count: 3, total: '75.00', face: '75.00' },
        { id: 'child', name: 'Child', count: 1, total: '12.00', face: '12.00' },
      ]),
    ];
    expect(addedItems(before, after).map((i) => [i.item_id, i.quantity, i.price])).toEqual([
      ['adult', 2, 25],
      ['child', 1, 12],
    ]);
    expect(addedItems(after, before)).toEqual([]);
    const removed = toEcommerceEvent({ name: 'remove_from_cart', before: { items: after }, after: { items: before } }, 'USD');
    expect(removed).toMatchObject({
      event: 'remove_from_cart',
      ecommerce: {
        currency: 'USD',
        value: 62,
        items: [
          { item_id: 'adult', quantity: 2 },
          { item_id: 'child', quantity: 1 },
        ],
      },
    });
    expect(toEcommerceEvent({ name: 'remove_from_cart', before: { items: before }, after: { items: before } }, 'USD')).toBeNull();
  });

  it('a purchase names the orders and nothing about the buyer', () => {
    const cart = {
      items: [item('GA', 'admission', [{ id: 'adult', name: 'Adult', count: 2, total: '50.00', face: '50.00' }])],
      email: 'x@y.z',
    };
    const event = toEcommerceEvent({ name: 'purchase', cart, orderIds: ['o1'] }, 'USD')!;
    expect(event).toEqual({
      event: 'purchase',
      ecommerce: {
        currency: 'USD',
        value: 50,
        transaction_id: 'o1',
        items: [
          { item_id: 'adult', item_name: 'GA', item_category: 'admission', item_variant: 'Adult', price: 25, discount: 0, quantity: 2 },
        ],
      },
    });
  });
});

describe('feature flags', () => {
  it('a set flag wins; unset, the older setting decides', () => {
    const config = {
      web: { show_promo_codes_on_checkout: true, extend_timer: true },
      membership_presell: false,
      upsells: { enabled: true },
    };
    expect(resolvedFlags(config)).toEqual({ promo_field: true, upsells: true, extend_timer: true, membership_presell: false });
    const all = { promo_field: false, upsells: false, extend_timer: false, membership_presell: true };
    expect(resolvedFlags({ ...config, flags: all })).toEqual(all);
    expect(resolvedFlags({})).toEqual({ promo_field: false, upsells: true, extend_timer: false, membership_presell: false });
  });

  it('polls every 1000 ms by default (spec section 9), never faster than 250 ms', () => {
    expect(flagsPollMs({})).toBe(1000);
    expect(flagsPollMs({ flags_poll_ms: 5000 })).toBe(5000);
    expect(flagsPollMs({ flags_poll_ms: 10 })).toBe(250);
  });
});

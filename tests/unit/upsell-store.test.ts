import { describe, expect, it } from 'vitest';
import { fakeServer, route, type Handler } from '../helpers/fake-api';
import { cartBody, item, memoryStorage } from '../helpers/cart-answers';
import { CartStore } from '../../src/stores/CartStore';
import { UpsellStore } from '../../src/stores/UpsellStore';
import type { RootStore } from '../../src/stores/RootStore';

const CART = '11111111-1111-4111-8111-111111111111';
const TZ = 'America/New_York';
const GA = { id: 'ga', category: 'admission' };
const OCEAN = { id: 'ocean', category: 'exhibition', config: { upsell: { requires_anchor: true, anchor_event_ids: ['ga'] } } };
const TALK = { id: 'talk', category: 'tour' };
const CONCERT = { id: 'concert', category: 'performance' };

/** General Admission on 1 December 2026 at 10:00 New York, 2 Adult 1 Child, as GET cart's items show it. */
const admission = item('ga:s1', {
  isAnchor: true,
  name: 'General Admission',
  eventId: 'ga',
  sessionId: 's1',
  start: '2026-12-01T15:00:00.000Z',
  end: '2026-12-01T15:30:00.000Z',
  types: [
    { name: 'Adult', count: 2 },
    { name: 'Child', count: 1 },
  ],
});
const row = (e: { id: string; category: string; config?: unknown }) => ({ name: e.id, venue_id: null, meta: {}, ...e });

function setup(upsells: Record<string, unknown> = {}, handler: Handler = () => ({ status: 500, data: {} })) {
  const server = fakeServer((c) => (route(c) === 'POST cart/modify' ? cartBody(CART, { items: [admission] }) : handler(c)));
  const storage = memoryStorage();
  const cart = new CartStore({ api: server.api, storage, sellerKey: 'seller-1' });
  const config = {
    seller: { id: 'seller-1' },
    timezone: TZ,
    flags: {},
    storefront: {
      admission_event_id: 'ga',
      upsells: {
        enabled: true,
        anchor_categories: ['admission'],
        upsell_categories: ['exhibition', 'tour'],
        visit_time: 'same_date',
        ...upsells,
      },
    },
  };
  const root = { api: server.api, cart, config, isActiveMember: false } as unknown as RootStore;
  return { root, cart, storage, seen: server.seen, store: new UpsellStore(root, storage) };
}

describe('UpsellStore: the chain after an anchor (issue 16)', () => {
  it('an admission starts the chain, kept as upsellsChain and visitWindow; its add-ons are offered until skipped or taken', async () => {
    const { cart, store, storage, root } = setup();
    await cart.reserve([{ ticket_type_id: 'a', event_session_id: 's1' }]);
    expect(store.nextAfterReserve(GA, 's1')).toBe('/events');
    expect(store.active).toBe(true);
    expect(JSON.parse(storage.getItem('storefront.upsellsChain.seller-1')!)).toEqual({
      cartId: CART,
      anchorItemId: 'ga:s1',
      skipped: [],
      taken: [],
      ended: false,
    });
    // same_date: the venue's 1 December, midnight to midnight New York
    expect(JSON.parse(storage.getItem('storefront.visitWindow.seller-1')!)).toEqual({
      from: Date.parse('2026-12-01T05:00:00Z'),
      to: Date.parse('2026-12-02T05:00:00Z'),
      anchorItemId: 'ga:s1',
      date: '2026-12-01',
    });
    expect([OCEAN, TALK, CONCERT, GA].map((e) => store.isOffer(e))).toEqual([true, true, false, false]);
    store.skip('ocean');
    expect(store.isOffer(OCEAN)).toBe(false);
    // taking an add-on of a running chain goes back to its offers
    expect(store.nextAfterReserve(TALK, 't1')).toBe('/events');
    expect(store.isOffer(TALK)).toBe(false);
    // another tab reads the same chain
    expect(new UpsellStore(root, storage).chain).toMatchObject({ skipped: ['ocean'], taken: ['talk'] });
    store.end();
    expect(store.active).toBe(false);
    expect(store.nextAfterReserve(TALK, 't1')).toBe('/checkout');
  });

  it("reads the offers of the visit's window and leaves out what the cart holds or the shopper skipped", async () => {
    const { cart, store, seen } = setup({}, (c) =>
      route(c) === 'GET events/available'
        ? {
            status: 200,
            data: { event_template: { _count: 4, _data: [GA, OCEAN, TALK, CONCERT].map(row) }, venue: { _count: 0, _data: [] } },
          }
        : { status: 500, data: {} },
    );
    await cart.reserve([{ ticket_type_id: 'a', event_session_id: 's1' }]);
    store.nextAfterReserve(GA, 's1');
    await store.loadOffers();
    expect(seen.at(-1)?.params).toMatchObject({
      _embed: 'venue,meta,config',
      'start_datetime._gte': '2026-12-01T05:00:00.000Z',
      'start_datetime._lt': '2026-12-02T05:00:00.000Z',
    });
    expect(store.remaining.map((e) => e.id)).toEqual(['ocean', 'talk']);
    store.skip('talk');
    expect(store.remaining.map((e) => e.id)).toEqual(['ocean']);
  });

  it('a cleared cart clears the chain (spec section 4); a seller that skips upsells goes straight to checkout', async () => {
    const first = setup();
    await first.cart.reserve([{ ticket_type_id: 'a', event_session_id: 's1' }]);
    first.store.nextAfterReserve(GA, 's1');
    first.cart.clear();
    expect(first.store.active).toBe(false);
    expect([...first.storage.map.keys()].filter((k) => k.includes('upsell') || k.includes('visitWindow'))).toEqual([]);

    const skipping = setup({ skip: true });
    await skipping.cart.reserve([{ ticket_type_id: 'a', event_session_id: 's1' }]);
    expect(skipping.store.nextAfterReserve(GA, 's1')).toBe('/checkout');
    expect(skipping.store.active).toBe(false);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { fakeServer, route, type Handler } from '../helpers/fake-api';
import { cartBody, item, memoryStorage } from '../helpers/cart-answers';
import { ApiError } from '../../src/api/errors';
import { CartStore } from '../../src/stores/CartStore';
import { saveMembershipIntent, readMembershipIntent } from '../../src/stores/membership-intent';
import { CheckoutStore } from '../../src/stores/CheckoutStore';
import { payWithStripe, type StripePaymentHandle } from '../../src/screens/checkout/stripe-payment';
import { captchaFor } from '../../src/screens/checkout/captcha';

const error = (status: number, code: string, extra?: Record<string, unknown>, context?: string) => ({
  status,
  data: { _data: [{ _code: code, _context: context, _extra: extra }] },
});

const CART = '11111111-1111-4111-8111-111111111111';
const KEY = 'storefront.cart.seller-1';

function makeStore(handler: Handler, opts: { stored?: string; now?: () => number; defaultCodes?: string[] } = {}) {
  const server = fakeServer(handler);
  const storage = memoryStorage(opts.stored ? { [KEY]: opts.stored } : {});
  const onExpired = vi.fn();
  let clock = 1_000_000;
  const now = opts.now ?? (() => clock);
  const defaultCodes = opts.defaultCodes ? () => opts.defaultCodes! : undefined;
  const cart = new CartStore({ api: server.api, storage, sellerKey: 'seller-1', now, onExpired, defaultCodes });
  return {
    cart,
    ...server,
    storage,
    onExpired,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

const line = { event_session_id: 'sess', ticket_type_id: 'tt' };

describe('CartStore.reserve', () => {
  it('creates the cart on the first reserve and keeps its id, with local expiry = expires_in - 5 s', async () => {
    const { cart, seen, storage } = makeStore((c) =>
      route(c) === 'POST cart/modify' ? cartBody(CART, { expiresIn: 600 }) : error(500, 'x'),
    );
    await cart.reserve([line], { g1: { zip_code: '10001' } });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: 'cart/modify',
        params: { _seller: 'demo' },
        body: { add: [line], additional_info: { g1: { zip_code: '10001' } }, channel_id: 'web' },
      },
    ]);
    expect(cart.cartId).toBe(CART);
    expect(storage.map.get(KEY)).toBe(CART);
    expect(cart.localExpiry).toBe(1_000_000 + 595_000);
    expect(cart.secondsLeft).toBe(595);
    expect(cart.ticketCount).toBe(2);
    cart.stopClock();
  });

  it('holds the countdown at the answer while the page is not yet alive (a page the server drew, hydrating), then counts', async () => {
    const server = fakeServer((c) => (route(c) === 'POST cart/modify' ? cartBody(CART, { expiresIn: 600 }) : error(500, 'x')));
    let alive = false;
    let clock = 1_000_000;
    const cart = new CartStore({
      api: server.api,
      storage: memoryStorage({}),
      sellerKey: 'seller-1',
      now: () => clock,
      counting: () => alive,
    });
    await cart.reserve([line]);
    expect(cart.secondsLeft).toBe(595);
    clock += 3_000;
    cart.tick();
    expect(cart.secondsLeft).toBe(595);
    alive = true;
    expect(cart.secondsLeft).toBe(592);
    cart.stopClock();
  });

  it("a new cart takes the seller's first default code without asking it for a discount; a stored cart is not sent it", async () => {
    const { cart, seen } = makeStore((c) => (route(c).startsWith('POST cart') ? cartBody(CART) : error(500, 'x')), {
      defaultCodes: [' WELCOME ', 'OTHER'],
    });
    await cart.reserve([line]);
    await cart.reserve([line]);
    expect(seen.map((s) => s.body)).toEqual([
      { add: [line], channel_id: 'web', apply_code_default: { codes: ['WELCOME'], ignore_errors: true, require_benefit: false } },
      { add: [line] },
    ]);
    cart.stopClock();
  });

  it('adds to the stored cart with POST cart/{id}/modify', async () => {
    const { cart, seen } = makeStore((c) => (route(c) === `POST cart/${CART}/modify` ? cartBody(CART) : error(500, 'x')), { stored: CART });
    await cart.reserve([line]);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`POST cart/${CART}/modify`]);
    expect(seen[0].body).toEqual({ add: [line] });
    cart.stopClock();
  });

  it('forgets a stored cart the server no longer has and starts a new one', async () => {
    const NEW = '22222222-2222-4222-8222-222222222222';
    const { cart, seen } = makeStore(
      (c) => (route(c) === 'POST cart/modify' ? cartBody(NEW) : error(404, 'not_found', { resource: 'cart', id: CART })),
      { stored: CART },
    );
    await cart.reserve([line]);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`POST cart/${CART}/modify`, 'POST cart/modify']);
    expect(cart.cartId).toBe(NEW);
    cart.stopClock();
  });

  it("an unknown ticket type is the caller's error, not the cart's: the cart stays", async () => {
    const { cart, seen } = makeStore(() => error(404, 'not_found', { resource: 'ticket_type', id: 'tt' }), { stored: CART });
    await expect(cart.reserve([line])).rejects.toMatchObject({ _code: 'not_found' });
    expect(seen).toHaveLength(1);
    expect(cart.cartId).toBe(CART);
  });

  it('throws the typed error of a refused reserve and keeps the cart', async () => {
    const { cart } = makeStore(
      (c) => (route(c).startsWith('GET') ? cartBody(CART) : error(409, 'event_session_sold_out', { event_session_id: 'sess' }, 'reserve')),
      { stored: CART },
    );
    await cart.load();
    const thrown = await cart.reserve([line]).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ status: 409, _code: 'event_session_sold_out', _context: 'reserve' });
    expect(cart.cartId).toBe(CART);
    expect(cart.isEmpty).toBe(false);
    cart.stopClock();
  });

  it('an expired cart opens the expiry modal, clears the cart and rethrows', async () => {
    const { cart, onExpired, storage } = makeStore(
      (c) =>
        route(c).startsWith('GET')
          ? cartBody(CART)
          : route(c).startsWith('DELETE')
            ? { status: 200, data: {} }
            : error(410, 'cart_expired'),
      { stored: CART },
    );
    await cart.load();
    await expect(cart.reserve([line])).rejects.toMatchObject({ _code: 'cart_expired' });
    expect(onExpired).toHaveBeenCalledOnce();
    expect(cart.cartId).toBeNull();
    expect(storage.map.has(KEY)).toBe(false);
  });
});

describe('CartStore.load', () => {
  it('deletes a cart with under 30 s left instead of showing it (spec section 7)', async () => {
    const { cart, seen } = makeStore((c) => (route(c).startsWith('GET') ? cartBody(CART, { expiresIn: 29 }) : { status: 200, data: {} }), {
      stored: CART,
    });
    await cart.load();
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET cart/${CART}`, `DELETE cart/${CART}`]);
    expect(cart.cartId).toBeNull();
    expect(cart.isEmpty).toBe(true);
  });

  it('keeps a cart with 30 s left', async () => {
    const { cart } = makeStore(() => cartBody(CART, { expiresIn: 30 }), { stored: CART });
    await cart.load();
    expect(cart.cartId).toBe(CART);
    expect(cart.secondsLeft).toBe(25);
    cart.stopClock();
  });

  it('forgets a cart that is gone (404) or not ours (403)', async () => {
    for (const status of [404, 403]) {
      const { cart, storage } = makeStore(() => error(status, status === 404 ? 'not_found' : 'cart_access_denied'), { stored: CART });
      await cart.load();
      expect(cart.cartId).toBeNull();
      expect(storage.map.has(KEY)).toBe(false);
    }
  });

  it('keeps the stored id when the network fails', async () => {
    const { cart } = makeStore(() => error(500, 'boom'), { stored: CART });
    await cart.load();
    expect(cart.cartId).toBe(CART);
    expect(cart.error?._code).toBe('boom');
  });

  it("a screen opening just after the page arrived takes the startup read of its cart; later, or another cart's, reads again", async () => {
    const OTHER = '22222222-2222-4222-8222-222222222222';
    const { cart, seen, advance } = makeStore((c) => cartBody(route(c).includes(OTHER) ? OTHER : CART), { stored: CART });
    const gets = () => seen.filter((s) => s.method === 'GET').length;
    await cart.loadAtStartup();
    await cart.loadOnOpen();
    expect(gets()).toBe(1);
    // Taken once: the next opening (another visit of the checkout) reads again.
    await cart.loadOnOpen();
    expect(gets()).toBe(2);
    // Too long after the page arrived, the startup read is not fresh enough.
    await cart.loadAtStartup();
    advance(10_001);
    await cart.loadOnOpen();
    expect(gets()).toBe(4);
    // A checkout of another cart than the stored one reads that cart.
    await cart.loadAtStartup();
    cart.adopt(OTHER);
    await cart.loadOnOpen();
    expect(seen.at(-1)!.url).toBe(`cart/${OTHER}`);
    expect(cart.cartId).toBe(OTHER);
    cart.stopClock();
  });

  it('the browser starting reads the stored cart once: not again when a drawn checkout read it at startup', async () => {
    const { cart, seen } = makeStore(() => cartBody(CART), { stored: CART });
    const gets = () => seen.filter((s) => s.method === 'GET').length;
    await cart.startOnce();
    expect(gets()).toBe(1);
    const drawn = makeStore(() => cartBody(CART));
    drawn.cart.adopt(CART);
    await drawn.cart.loadAtStartup();
    await drawn.cart.loadOnOpen();
    await drawn.cart.startOnce();
    expect(drawn.seen.filter((s) => s.method === 'GET')).toHaveLength(1);
    cart.stopClock();
    drawn.cart.stopClock();
  });

  it('a completed cart is cleared and its orders remembered for the confirmation', async () => {
    const { cart } = makeStore(() => cartBody(CART, { state: 'completed', expiresIn: null, orders: ['o1'] }), { stored: CART });
    await cart.load();
    expect(cart.cartId).toBeNull();
    expect(cart.completedOrderIds).toEqual(['o1']);
  });
});

describe('CartStore expiry, extension and removal', () => {
  it('expires locally when the clock passes local expiry: cleared, released, modal opened', async () => {
    const { cart, seen, onExpired, advance } = makeStore(
      (c) => (route(c).startsWith('GET') ? cartBody(CART, { expiresIn: 60 }) : { status: 200, data: {} }),
      { stored: CART },
    );
    await cart.load();
    advance(55_000);
    cart.tick();
    expect(cart.cartId).toBe(CART); // exactly at local expiry: not yet
    advance(1_000);
    cart.tick();
    expect(onExpired).toHaveBeenCalledOnce();
    expect(cart.cartId).toBeNull();
    await vi.waitFor(() => expect(seen.map((s) => s.method)).toContain('DELETE'));
  });

  it('offers the extension at 60 s until declined; the decline is stored for the cart', async () => {
    const { cart, storage, advance } = makeStore(() => cartBody(CART, { expiresIn: 125 }), { stored: CART });
    await cart.load();
    expect(cart.showExtendOffer).toBe(false);
    advance(60_000);
    cart.tick();
    expect(cart.secondsLeft).toBe(60);
    expect(cart.showExtendOffer).toBe(true);
    cart.declineExtension();
    expect(cart.showExtendOffer).toBe(false);
    expect(storage.map.get('storefront.cartDeclinedExtension.seller-1')).toBe(CART);
    const again = new CartStore({ api: fakeServer(() => cartBody(CART)).api, storage, sellerKey: 'seller-1' });
    expect(again.declinedExtension).toBe(true);
    cart.stopClock();
  });

  it('extends with PATCH my/cart/{id} and offers no second extension', async () => {
    const { cart, seen, advance } = makeStore(
      (c) => (route(c).startsWith('PATCH') ? cartBody(CART, { expiresIn: 170, extended: true }) : cartBody(CART, { expiresIn: 65 })),
      { stored: CART },
    );
    await cart.load();
    advance(5_000);
    cart.tick();
    expect(cart.showExtendOffer).toBe(true);
    await cart.extend();
    expect(seen.at(-1)).toMatchObject({ method: 'PATCH', url: `my/cart/${CART}` });
    expect(cart.secondsLeft).toBe(165);
    advance(110_000);
    cart.tick();
    expect(cart.showExtendOffer).toBe(false);
    cart.stopClock();
  });

  it('removing one of several items removes its tickets; the last item or a dependency deletes the cart', async () => {
    const a = item('a', { ticketIds: ['t1', 't2'] });
    const b = item('b', { isAnchor: true, isDependency: true });
    const { cart, seen } = makeStore(
      (c) => {
        if (route(c).startsWith('GET')) return cartBody(CART, { items: [a, b] });
        if (route(c) === `POST cart/${CART}/remove`) return cartBody(CART, { items: [b] });
        return { status: 200, data: {} };
      },
      { stored: CART },
    );
    await cart.load();
    expect(cart.removeClearsCart(a)).toBe(false);
    expect(cart.removeClearsCart(b)).toBe(true);
    cart.requestRemove(a);
    await cart.confirmRemove();
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: `cart/${CART}/remove`,
      params: { _seller: 'demo' },
      body: { tickets: ['t1', 't2'] },
    });
    expect(cart.items.map((i) => i.id)).toEqual(['b']);
    cart.requestRemove(cart.items[0]);
    await cart.confirmRemove();
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', url: `cart/${CART}` });
    expect(cart.isEmpty).toBe(true);
    expect(cart.pendingRemoval).toBeNull();
  });

  it('follows another tab: a new id is loaded, a removed id clears', async () => {
    const OTHER = '33333333-3333-4333-8333-333333333333';
    const { cart, seen } = makeStore(() => cartBody(OTHER), { stored: CART });
    cart.onStorageChange(OTHER);
    await vi.waitFor(() => expect(cart.cart?.id).toBe(OTHER));
    expect(seen[0].url).toBe(`cart/${OTHER}`);
    cart.onStorageChange(null);
    expect(cart.cartId).toBeNull();
  });
});

describe('CheckoutStore', () => {
  const USER = '44444444-4444-4444-8444-444444444444';
  const identity = { first_name: ' Ada ', last_name: 'Lovelace', email: 'ada@example.com', email_confirm: 'ADA@example.com' };
  const card = { number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

  function setup(
    checkout: (body: Record<string, unknown>) => { status: number; data: unknown },
    cartOpts: Parameters<typeof cartBody>[1] = {},
  ) {
    const bodies: Array<Record<string, unknown>> = [];
    const store = makeStore(
      (c) => {
        const r = route(c);
        if (r === 'POST user') return { status: 200, data: { identity: { _count: 1, _data: [{ id: USER, identity_id: USER }] } } };
        if (r === `POST cart/${CART}/guest_checkout`) {
          const b = JSON.parse(c.data);
          bodies.push(b);
          return checkout(b);
        }
        return cartBody(CART, cartOpts);
      },
      { stored: CART },
    );
    const tokens = memoryStorage();
    const checkoutStore = new CheckoutStore({ api: store.api, cart: store.cart, tokenStorage: tokens });
    return { ...store, checkout: checkoutStore, bodies, tokens };
  }
  const booked = { status: 200, data: { ticket_order: { _count: 1, _data: [{ id: 'order-1', access_token: 'a'.repeat(32) }] } } };

  it('posts the purchaser, then pays the outstanding amount with the test card; the cart is cleared', async () => {
    const { cart, checkout, seen, bodies, tokens } = setup(() => booked);
    await cart.load();
    const outcome = await checkout.submit(identity, card);
    expect(outcome).toEqual({ kind: 'completed', orderIds: ['order-1'] });
    expect(seen.find((s) => s.url === 'user')?.body).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      email_confirm: 'ADA@example.com',
    });
    expect(bodies[0]).toEqual({
      amount: '63.00',
      gateway_id: 'test',
      guest_identity_id: USER,
      send_email: true,
      gateway_data: { card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } },
    });
    expect(checkout.completedOrderIds).toEqual(['order-1']);
    expect(cart.cartId).toBeNull();
    expect(tokens.map.get('storefront.orderToken.order-1')).toBe('a'.repeat(32));
  });

  it("the membership form's choices: auto_renew on the checkout, or the gift checkout naming the giftee (issue 12)", async () => {
    const { cart, bodies, api } = setup(() => booked);
    await cart.load();
    const intents = memoryStorage();
    const withIntents = new CheckoutStore({ api, cart, tokenStorage: memoryStorage(), intents });
    saveMembershipIntent(intents, CART, { autoRenew: true });
    expect(await withIntents.submit(identity, card)).toEqual({ kind: 'completed', orderIds: ['order-1'] });
    expect(bodies[0]).toMatchObject({ auto_renew: true, guest_identity_id: USER });
    expect(readMembershipIntent(intents, CART)).toEqual({});

    const second = setup(() => booked);
    await second.cart.load();
    saveMembershipIntent(intents, CART, { gifteeIdentityId: 'giftee-1' });
    await new CheckoutStore({ api: second.api, cart: second.cart, tokenStorage: memoryStorage(), intents }).submit(identity, card);
    const gift = second.seen.find((s) => s.url === `cart/${CART}/gift_checkout`);
    expect(gift?.body).toMatchObject({ giftee_identity_id: 'giftee-1', guest_identity_id: USER });
    expect(gift?.body).not.toHaveProperty('auto_renew');
  });

  it('a free cart checks out with gateway free, no card and no email', async () => {
    const { cart, checkout, bodies } = setup(() => booked, { outstanding: '0.00' });
    await cart.load();
    await checkout.submit(identity, null);
    expect(bodies[0]).toMatchObject({ amount: '0.00', gateway_id: 'free', gateway_data: {}, send_email: false });
  });

  it('a declined card keeps and reloads the cart and reports the card’s refusal by its code', async () => {
    const { cart, checkout, seen } = setup(() => error(402, 'card_declined', {}, 'payment'));
    await cart.load();
    const outcome = await checkout.submit(identity, card);
    expect(outcome.kind).toBe('failed');
    expect(checkout.failure).toEqual({ kind: 'payment', providerMessage: '', reason: 'card_declined' });
    expect(cart.cartId).toBe(CART);
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(2);
    cart.stopClock();
  });

  it('402 intent_requires_action asks for confirmation, then retries with the intent id as source', async () => {
    let calls = 0;
    const { cart, checkout, bodies } = setup(() =>
      ++calls === 1 ? error(402, 'intent_requires_action', { intent_id: 'ti_1' }, 'payment') : booked,
    );
    await cart.load();
    expect(await checkout.submit(identity, card)).toEqual({ kind: 'requires_action' });
    expect(checkout.pendingIntentId).toBe('ti_1');
    expect(await checkout.confirmPendingAction()).toEqual({ kind: 'completed', orderIds: ['order-1'] });
    expect(bodies[1].gateway_data).toEqual({ source: 'ti_1' });
  });

  it('ignores a second submit while the first is running (double click)', async () => {
    const { cart, checkout, bodies } = setup(() => booked);
    await cart.load();
    const [first, second] = await Promise.all([checkout.submit(identity, card), checkout.submit(identity, card)]);
    expect(first.kind).toBe('completed');
    expect(second.kind).toBe('failed');
    expect(bodies).toHaveLength(1);
  });

  describe('with a captcha for guests (issue 14)', () => {
    function solver(tokens: Array<string | null>) {
      const asked: number[] = [];
      const solve = async () => {
        asked.push(asked.length);
        const token = tokens.shift() ?? null;
        return token ? { provider: 'altcha' as const, token } : null;
      };
      return { solve, asked };
    }

    it('sends a freshly solved token with every checkout call, the 3-D Secure retry included', async () => {
      let calls = 0;
      const { cart, checkout, bodies } = setup(() =>
        ++calls === 1 ? error(402, 'intent_requires_action', { intent_id: 'ti_1' }, 'payment') : booked,
      );
      await cart.load();
      const { solve, asked } = solver(['t1', 't2']);
      expect(await checkout.submit(identity, card, { captcha: solve })).toEqual({ kind: 'requires_action' });
      expect(await checkout.confirmPendingAction()).toEqual({ kind: 'completed', orderIds: ['order-1'] });
      expect(asked).toHaveLength(2);
      expect(bodies.map((b) => b.captcha)).toEqual([
        { provider: 'altcha', token: 't1' },
        { provider: 'altcha', token: 't2' },
      ]);
    });

    it('stops silently when the captcha is closed or expires: nothing is posted, nothing is said', async () => {
      const { cart, checkout, bodies } = setup(() => booked);
      await cart.load();
      expect(await checkout.submit(identity, card, { captcha: solver([null]).solve })).toEqual({ kind: 'failed' });
      expect(bodies).toHaveLength(0);
      expect(checkout.failure).toBeNull();
      expect(checkout.submitting).toBe(false);
      expect(cart.cartId).toBe(CART);
      cart.stopClock();
    });

    it('says so when the server does not take the token; the next try solves a new one', async () => {
      let calls = 0;
      const { cart, checkout, bodies } = setup(() =>
        ++calls === 1 ? error(400, 'captcha_invalid', { reason: 'expired' }, 'checkout') : booked,
      );
      await cart.load();
      const { solve } = solver(['old', 'new']);
      expect(await checkout.submit(identity, card, { captcha: solve })).toEqual({ kind: 'failed' });
      expect(checkout.failure).toEqual({ kind: 'captcha' });
      expect((await checkout.submit(identity, card, { captcha: solve })).kind).toBe('completed');
      expect(bodies.map((b) => (b.captcha as { token: string }).token)).toEqual(['old', 'new']);
    });

    it('is asked of guests only, for a provider the storefront knows', () => {
      expect(captchaFor('altcha', false)).toBe('altcha');
      expect(captchaFor('altcha', true)).toBeNull();
      expect(captchaFor(null, false)).toBeNull();
      expect(captchaFor('recaptcha', false)).toBeNull();
    });
  });

  describe('with Stripe (issue 14)', () => {
    /** The Payment Element's part, as StripePayment.tsx gives it once Stripe.js is there. */
    function handle(
      made: Awaited<ReturnType<StripePaymentHandle['createPaymentMethod']>>,
      next: { ok: true } | { ok: false; message: string } = { ok: true },
    ) {
      const calls: string[] = [];
      const h: StripePaymentHandle = {
        createPaymentMethod: async () => {
          calls.push('create');
          return made;
        },
        handleNextAction: async (secret) => {
          calls.push(`next:${secret}`);
          return next;
        },
      };
      return { h, calls };
    }
    const pm = { kind: 'ok', paymentMethodId: 'pm_123' } as const;

    it("pays through the cart's Stripe gateway with the element's PaymentMethod", async () => {
      const { cart, checkout, bodies } = setup(() => booked, { gateway: 'stripe' });
      await cart.load();
      const outcome = await payWithStripe(handle(pm).h, checkout, identity);
      expect(outcome).toEqual({ kind: 'completed', orderIds: ['order-1'] });
      expect(bodies[0]).toMatchObject({ gateway_id: 'stripe', gateway_data: { payment_method: 'pm_123' }, amount: '63.00' });
    });

    it('runs 3-D Secure in the page on 402 intent_requires_action, then retries with the intent as the source', async () => {
      const { cart, checkout, bodies } = setup(
        (b) =>
          (b.gateway_data as { source?: string }).source
            ? booked
            : error(402, 'intent_requires_action', { intent_id: 'pi_1', client_secret: 'pi_1_secret_x' }, 'payment'),
        { gateway: 'stripe' },
      );
      await cart.load();
      const { h, calls } = handle(pm);
      const outcome = await payWithStripe(h, checkout, identity);
      expect(calls).toEqual(['create', 'next:pi_1_secret_x']);
      expect(bodies.map((b) => b.gateway_data)).toEqual([{ payment_method: 'pm_123' }, { source: 'pi_1' }]);
      expect(outcome.kind).toBe('completed');
    });

    it('says a failed confirmation like a decline, and the cart stays as it was', async () => {
      const { cart, checkout, bodies } = setup(
        () => error(402, 'intent_requires_action', { intent_id: 'pi_1', client_secret: 'pi_1_secret_x' }, 'payment'),
        { gateway: 'stripe' },
      );
      await cart.load();
      const outcome = await payWithStripe(handle(pm, { ok: false, message: 'Authentication failed.' }).h, checkout, identity);
      expect(outcome).toEqual({ kind: 'failed' });
      expect(bodies).toHaveLength(1);
      expect(checkout.failure).toEqual({ kind: 'payment', providerMessage: 'Authentication failed.' });
      expect(checkout.pendingIntentId).toBeNull();
      expect(cart.cart?.id).toBe(CART);
    });

    it('keeps the card’s refusal code and refreshes the cart', async () => {
      const { cart, checkout, seen } = setup(() => error(402, 'card_declined', {}, 'payment'), { gateway: 'stripe' });
      await cart.load();
      const before = seen.filter((s) => s.method === 'GET').length;
      expect(await payWithStripe(handle(pm).h, checkout, identity)).toEqual({ kind: 'failed' });
      expect(checkout.failure).toEqual({ kind: 'payment', providerMessage: '', reason: 'card_declined' });
      expect(seen.filter((s) => s.method === 'GET').length).toBeGreaterThan(before);
    });

    it("pays a wallet's PaymentMethod through the same checkout call, naming the wallet", async () => {
      const { cart, checkout, bodies } = setup(() => booked, { gateway: 'stripe' });
      await cart.load();
      const outcome = await payWithStripe(handle(pm).h, checkout, identity, {}, 'google');
      expect(outcome.kind).toBe('completed');
      expect(bodies).toHaveLength(1);
      expect(bodies[0]).toMatchObject({ gateway_id: 'stripe', gateway_data: { payment_method: 'pm_123', wallet: 'google' } });
    });

    it('goes to the pending screen when the payment is still clearing (202)', async () => {
      const pending = {
        status: 202,
        data: { pending_payment: { _count: 1, _data: [{ cart_id: CART, cart_number: '7', status: 'processing' }] } },
      };
      const { cart, checkout } = setup(() => pending, { gateway: 'stripe' });
      await cart.load();
      expect(await payWithStripe(handle(pm).h, checkout, identity)).toEqual({ kind: 'pending', cartId: CART });
      expect(cart.cart).toBeNull();
    });

    it('does not post anything when the element finds the details invalid, or Stripe.js is missing', async () => {
      const { cart, checkout, bodies } = setup(() => booked, { gateway: 'stripe' });
      await cart.load();
      expect(await payWithStripe(handle({ kind: 'invalid' }).h, checkout, identity)).toEqual({ kind: 'invalid' });
      expect(await payWithStripe(handle({ kind: 'unavailable', loading: false }).h, checkout, identity)).toEqual({ kind: 'unavailable' });
      expect(checkout.failure).toEqual({ kind: 'provider', state: 'unavailable' });
      expect(await payWithStripe(null, checkout, identity)).toEqual({ kind: 'unavailable' });
      expect(bodies).toHaveLength(0);
    });
  });
});

import { describe, expect, it, vi } from 'vitest';
import { fakeServer, route, type Reply } from '../helpers/fake-api';
import { SessionStore } from '../../src/stores/SessionStore';
import { CartStore } from '../../src/stores/CartStore';
import { activeMemberships, greetingName, readMarker, SESSION_MARKER_COOKIE } from '../../src/domain/session';

const fail = (status: number, code: string, extra?: Record<string, unknown>): Reply => ({
  status,
  data: { _data: [{ _code: code, _extra: extra }] },
});
const userBody: Reply = {
  status: 200,
  data: {
    user: { _count: 1, _data: [{ id: 'u1', identity_id: 'i1', email: 'member@example.com' }] },
    identity: { _count: 1, _data: [{ id: 'i1', first_name: 'Alex', last_name: 'Rivera', email: 'member@example.com', zip_code: '10024' }] },
  },
};
const memberships = (rows: Array<{ valid_from: string; valid_to: string }>): Reply => ({
  status: 200,
  data: {
    membership: {
      _count: rows.length,
      _data: rows.map((r, i) => ({ id: `m${i}`, scan_code: 'M1', role_id: 'r', membership_program_id: 'p', auto_renew_state: null, ...r })),
    },
  },
});

const NOW = new Date('2026-05-04T12:00:00Z');
const current = { valid_from: '2026-01-01T00:00:00Z', valid_to: '2027-01-01T00:00:00Z' };

describe('session domain rules', () => {
  it('reads the marker cookie and nothing else', () => {
    expect(readMarker(null)).toBeNull();
    expect(readMarker('a=1; other_logged_in=x')).toBeNull();
    expect(readMarker(`a=1; ${SESSION_MARKER_COOKIE}=abc123; b=2`)).toBe('abc123');
    expect(readMarker(`${SESSION_MARKER_COOKIE}=`)).toBeNull();
  });

  it('an active membership is one whose term includes now', () => {
    const past = { valid_from: '2024-01-01T00:00:00Z', valid_to: '2025-01-01T00:00:00Z' };
    const future = { valid_from: '2027-01-01T00:00:00Z', valid_to: '2028-01-01T00:00:00Z' };
    expect(activeMemberships([past, future], NOW)).toEqual([]);
    expect(activeMemberships([past, current], NOW)).toEqual([current]);
    expect(activeMemberships([{ ...current, state: 'cancelled' }], NOW)).toEqual([]);
  });

  it('greets by first name, else by e-mail', () => {
    expect(greetingName({ first_name: ' Alex ' }, { email: 'a@b.co' })).toBe('Alex');
    expect(greetingName({ first_name: null }, { email: 'a@b.co' })).toBe('a@b.co');
    expect(greetingName(null, null)).toBe('');
  });
});

describe('SessionStore', () => {
  it('load(): GET my/user with identity embeds, then memberships; computes member state and greeting', async () => {
    const { api, seen } = fakeServer((c) => (route(c) === 'GET my/user' ? userBody : memberships([current])));
    const session = new SessionStore({ api, now: () => NOW });
    await session.load();
    expect(session.isLoggedIn).toBe(true);
    expect(session.greetingName).toBe('Alex');
    expect(session.isActiveMember).toBe(true);
    expect(seen[0]).toMatchObject({ method: 'GET', url: 'my/user', params: { _embed: 'identity,identity.meta', _seller: 'demo' } });
    expect(seen[1].url).toBe('my/membership');
  });

  it('load(): a 401 means logged out, without throwing', async () => {
    const { api } = fakeServer(() => fail(401, 'not_authenticated'));
    const session = new SessionStore({ api, now: () => NOW });
    await session.load();
    expect(session.isLoggedIn).toBe(false);
    expect(session.isActiveMember).toBe(false);
    expect(session.status).toBe('ready');
  });

  it('login(): posts the payload with the stored cart id, then runs the after-login hook', async () => {
    const { api, seen } = fakeServer((c) => (route(c) === 'POST login' ? userBody : memberships([])));
    const onLogin = vi.fn();
    const session = new SessionStore({ api, now: () => NOW, cartId: () => 'cart-1', onLogin });
    await session.login({ method: 'password', username: 'member@example.com', password: 'pw' });
    expect(seen[0].body).toEqual({ method: 'password', username: 'member@example.com', password: 'pw', cart_id: 'cart-1' });
    expect(session.isLoggedIn).toBe(true);
    expect(session.isActiveMember).toBe(false);
    expect(onLogin).toHaveBeenCalledTimes(1);
  });

  it('login(): a refusal is thrown as the ApiError and nobody is logged in', async () => {
    const { api } = fakeServer(() => fail(401, 'incorrect_password'));
    const session = new SessionStore({ api });
    await expect(session.login({ username: 'a@b.co', password: 'x' })).rejects.toMatchObject({ _code: 'incorrect_password', status: 401 });
    expect(session.isLoggedIn).toBe(false);
  });

  it('requestOtp() sends the seller slug as state; verifyOtp() logs in', async () => {
    const { api, seen } = fakeServer((c) =>
      route(c) === 'POST login/request_otp'
        ? { status: 200, data: { token: 'tok', expires_in: 600 } }
        : route(c) === 'POST login/otp_verify'
          ? userBody
          : memberships([]),
    );
    const session = new SessionStore({ api, sellerSlug: 'e2e-otp' });
    expect(await session.requestOtp(' member@example.com ')).toBe('tok');
    expect(seen[0].body).toEqual({ email: 'member@example.com', state: 'e2e-otp' });
    await session.verifyOtp('tok', 'ABC123');
    expect(seen[1].body).toEqual({ token: 'tok', otp: 'ABC123' });
    expect(session.isLoggedIn).toBe(true);
  });

  it('logout() clears the user even when the call fails, and tells the root', async () => {
    const { api } = fakeServer((c) =>
      route(c) === 'POST logout' ? { status: 502, data: {} } : route(c) === 'GET my/user' ? userBody : memberships([]),
    );
    const onLogout = vi.fn();
    const session = new SessionStore({ api, onLogout });
    await session.load();
    await session.logout();
    expect(session.isLoggedIn).toBe(false);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });

  it("logout() answers the identity provider's logout address of a single sign-on session, and null otherwise", async () => {
    const end = 'https://idp.example.org/session/end?id_token_hint=x&post_logout_redirect_uri=https%3A%2F%2Fshop.example.org%2F';
    let answer: unknown = { logout: { _data: [{ logged_out: true, end_session_url: end }] } };
    const { api } = fakeServer((c) =>
      route(c) === 'POST logout' ? { status: 200, data: answer } : route(c) === 'GET my/user' ? userBody : memberships([]),
    );
    const session = new SessionStore({ api });
    await session.load();
    expect(await session.logout()).toBe(end);
    expect(session.isLoggedIn).toBe(false);
    answer = { logout: { _data: [{ logged_out: true }] } };
    await session.load();
    expect(await session.logout()).toBeNull();
  });

  it('a staff preview of a logged-in visitor (assumeSession) loads the visitor without a marker and the check leaves it be', async () => {
    const { api, seen } = fakeServer((c) => (route(c) === 'GET my/user' ? userBody : memberships([])));
    const session = new SessionStore({ api, readCookies: () => '', assumeSession: true });
    await session.start();
    expect(session.isLoggedIn).toBe(true);
    const asked = seen.length;
    session.checkSession();
    expect(session.isLoggedIn).toBe(true);
    expect(seen.length).toBe(asked);
  });

  it('the 1 s check notices a logout in another tab (marker gone) and a login there (new marker)', async () => {
    let cookies = `${SESSION_MARKER_COOKIE}=one`;
    let loggedIn = true;
    const { api, seen } = fakeServer((c) =>
      route(c) === 'GET my/user' ? (loggedIn ? userBody : fail(401, 'not_authenticated')) : memberships([]),
    );
    const onLogout = vi.fn();
    const session = new SessionStore({ api, readCookies: () => cookies, onLogout });
    await session.start();
    expect(session.isLoggedIn).toBe(true);
    const calls = seen.length;
    session.checkSession();
    expect(seen.length).toBe(calls); // nothing changed: no request
    cookies = '';
    loggedIn = false;
    session.checkSession();
    expect(session.isLoggedIn).toBe(false);
    expect(session.endedElsewhere).toBe(true);
    expect(onLogout).toHaveBeenCalledTimes(1);
    cookies = `${SESSION_MARKER_COOKIE}=two`;
    loggedIn = true;
    session.checkSession();
    await vi.waitFor(() => expect(session.isLoggedIn).toBe(true));
    expect(session.endedElsewhere).toBe(false);
  });

  it('start() without a marker does not ask the server', async () => {
    const { api, seen } = fakeServer(() => userBody);
    const session = new SessionStore({ api, readCookies: () => 'x=1' });
    await session.start();
    expect(seen).toEqual([]);
    expect(session.status).toBe('ready');
    expect(session.isLoggedIn).toBe(false);
  });

  it('awaits the member while a page opened with a marker does not know who is logged in, and never without one', async () => {
    const marker = `${SESSION_MARKER_COOKIE}=abc`;
    const member = new SessionStore({
      api: fakeServer((c) => (route(c) === 'GET my/user' ? userBody : memberships([current]))).api,
      readCookies: () => marker,
    });
    expect(member.awaitingMember).toBe(true);
    const loading = member.start();
    expect(member.awaitingMember).toBe(true);
    await loading;
    expect(member.isLoggedIn).toBe(true);
    expect(member.awaitingMember).toBe(false);

    // A marker left behind by a session that ended: once the server says so, the login links show.
    const stale = new SessionStore({ api: fakeServer(() => fail(401, 'not_authenticated')).api, readCookies: () => marker });
    expect(stale.awaitingMember).toBe(true);
    await stale.start();
    expect(stale.awaitingMember).toBe(false);
    expect(stale.isLoggedIn).toBe(false);

    // The server did not answer: the links show rather than nothing for good.
    const down = new SessionStore({ api: fakeServer(() => ({ status: 503, data: {} })).api, readCookies: () => marker });
    await down.start();
    expect(down.awaitingMember).toBe(false);

    // No marker: nobody can be logged in here, the links show from the first render.
    expect(new SessionStore({ api: fakeServer(() => userBody).api, readCookies: () => 'x=1' }).awaitingMember).toBe(false);
    // A staff preview of a member: their menu is awaited too.
    expect(new SessionStore({ api: fakeServer(() => userBody).api, readCookies: () => '', assumeSession: true }).awaitingMember).toBe(true);
  });
});

describe('CartStore.afterLogin (spec section 4)', () => {
  const CART = '11111111-1111-4111-8111-111111111111';
  const storage = () => {
    const map = new Map([['storefront.cart.s', CART]]);
    return {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
      removeItem: (k: string) => void map.delete(k),
      map,
    };
  };
  const cartReply = (state: string, items: number): Reply => ({
    status: 200,
    data: {
      cart: {
        _count: 1,
        _data: [
          {
            id: CART,
            cart_number: '1',
            state,
            seller_id: 's',
            expires_at: null,
            expires_in: 600,
            extended_at: null,
            ownedByPublicIdentity: false,
            cart_fees: {
              gateway_id: 'test',
              account_id: 's',
              grand_totals: {
                total_before_cartmod_price: '1.00',
                total_fee_fixed_outside: '0.00',
                total_fee_percent_outside: '0.00',
                total_cartmod_amount: '0.00',
                total_payments: '0.00',
                total_outstanding: '1.00',
              },
            },
            items: Array.from({ length: items }, (_, i) => ({
              id: `it${i}`,
              name: 'E',
              event_template_id: 'e',
              event_session_id: null,
              start_datetime: null,
              image_url: null,
              image_alt: '',
              types: [],
              isAnchor: false,
              isDependency: false,
              isMembershipEvent: false,
              ticketIds: ['t'],
            })),
            ticket_order_ids: [],
          },
        ],
      },
      ticket: { _count: 0, _data: [] },
    },
  });

  const run = async (reply: Reply) => {
    const { api, seen } = fakeServer((c) => (route(c) === `DELETE cart/${CART}` ? { status: 200, data: {} } : reply));
    const store = storage();
    const cart = new CartStore({ api, storage: store, sellerKey: 's' });
    await cart.afterLogin();
    cart.stopClock();
    return { cart, seen, store };
  };

  it('pending with tickets: kept', async () => {
    const { cart, seen } = await run(cartReply('pending', 2));
    expect(cart.cartId).toBe(CART);
    expect(cart.items).toHaveLength(2);
    expect(cart.ownedByPublicIdentity).toBe(false);
    expect(seen.map((s) => s.method)).toEqual(['GET']);
  });

  it('pending without tickets: deleted', async () => {
    const { cart, seen } = await run(cartReply('pending', 0));
    expect(cart.cartId).toBeNull();
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET cart/${CART}`, `DELETE cart/${CART}`]);
  });

  it('not pending: cleared locally, not deleted', async () => {
    const { cart, seen, store } = await run(cartReply('completed', 1));
    expect(cart.cartId).toBeNull();
    expect(store.map.size).toBe(0);
    expect(seen.map((s) => s.method)).toEqual(['GET']);
  });

  it('a cart the server refuses (403) is forgotten', async () => {
    const { cart } = await run(fail(403, 'cart_access_denied'));
    expect(cart.cartId).toBeNull();
  });
});

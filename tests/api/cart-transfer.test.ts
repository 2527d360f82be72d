import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { AuthBrowser, DEMO_MEMBER, loadDemo } from '../helpers/auth';
import { checkOutFree, freeTalk, freeTalkCart } from '../helpers/free-talk';
import { setUnsafeSkipClaimGuardForTests } from '../../server/services/cart/transfer';
import { cleanUpAuth } from '../../server/jobs/auth-cleanup';
import { CART_TRANSFER_MINUTES } from '../../src/contract/cart-transfer';
import type { Deps } from '../../server/deps';

const SELLER = '_seller=demo';
const code = (res: { body: { _data?: Array<{ _code: string }> } }) => res.body._data?.[0]?._code;

describeEachDatabase('cart transfer (issue 17, /transfer-cart)', (ctx) => {
  let app: FastifyInstance;
  let deps: Deps;
  let talk: { typeId: string; sessionId: string };
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;

  beforeAll(async () => {
    await loadDemo(db(), clock.now());
    deps = testDeps(ctx(), clock.now);
    app = await buildTestApp(deps);
    talk = await freeTalk(db(), clock.now());
  });
  afterAll(async () => {
    await app?.close();
  });
  afterEach(() => setUnsafeSkipClaimGuardForTests(false));

  const guestCart = (count = 1, browser?: Browser | AuthBrowser) => freeTalkCart(app, talk, { count, browser });
  const link = async (b: Browser | AuthBrowser, cartId: string) => {
    const res = await b.post(`/api/cart/${cartId}/transfer`, {});
    expect(res.status).toBe(200);
    return res.body.cart_transfer._data[0] as { cart_id: string; token: string; expires_at: string };
  };
  const claim = (b: Browser | AuthBrowser, cartId: string, token: string) => b.post(`/api/cart/${cartId}/claim?_embed=venue`, { token });

  it("hands a guest cart to the browser that opens its owner's link, once; the first browser gives it up", async () => {
    const { b: owner, cartId } = await guestCart(2);
    const made = await link(owner, cartId);
    expect(made.cart_id).toBe(cartId);
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(made.expires_at).getTime() - clock.now().getTime()).toBe(CART_TRANSFER_MINUTES * 60_000);
    // Only the token's hash is kept.
    const stored = await db().selectFrom('cart_transfer').selectAll().where('cart_id', '=', cartId).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(made.token);

    const phone = new Browser(app);
    expect((await phone.get(`/api/cart/${cartId}?${SELLER}`)).status).toBe(403);
    const taken = await claim(phone, cartId, made.token);
    expect(taken.status).toBe(200);
    const row = taken.body.cart._data[0];
    expect(row).toMatchObject({ id: cartId, state: 'pending', ownedByPublicIdentity: true });
    expect(taken.body.ticket._count).toBe(2);
    // The cart is the phone's now: it reads and changes it; the first browser no longer does.
    expect((await phone.get(`/api/cart/${cartId}?${SELLER}`)).status).toBe(200);
    const more = await phone.post(`/api/cart/${cartId}/modify?${SELLER}`, {
      add: [{ ticket_type_id: talk.typeId, event_session_id: talk.sessionId }],
    });
    expect(more.status).toBe(200);
    expect(more.body.ticket._count).toBe(3);
    const gone = await owner.get(`/api/cart/${cartId}?${SELLER}`);
    expect([gone.status, code(gone)]).toEqual([403, 'cart_access_denied']);

    // The link worked once: a third browser with the same token gets nothing; the phone opening it again is answered.
    const third = await claim(new Browser(app), cartId, made.token);
    expect([third.status, code(third)]).toEqual([403, 'cart_access_denied']);
    expect((await claim(phone, cartId, made.token)).status).toBe(200);
  });

  it('hands nothing over for a guessed cart id: no token, a made-up token, or the token of another cart', async () => {
    const { b: owner, cartId } = await guestCart();
    const other = await guestCart();
    const otherLink = await link(other.b, other.cartId);
    await link(owner, cartId);
    const stranger = new Browser(app);
    const tries = [randomBytes(32).toString('base64url'), otherLink.token];
    for (const token of tries) {
      const res = await claim(stranger, cartId, token);
      expect([res.status, code(res)]).toEqual([403, 'cart_access_denied']);
    }
    // A token that is not of the link's form is refused by the contract.
    expect((await claim(stranger, cartId, 'x')).status).toBe(400);
    expect((await stranger.get(`/api/cart/${cartId}?${SELLER}`)).status).toBe(403);
    // A cart that does not exist is 404, as GET cart answers.
    const missing = await claim(stranger, '00000000-0000-4000-8000-000000000000', otherLink.token);
    expect([missing.status, code(missing)]).toEqual([404, 'not_found']);
    // The owner's cart is still the owner's.
    expect((await owner.get(`/api/cart/${cartId}?${SELLER}`)).status).toBe(200);
  });

  it('only the owner makes a link, of a pending cart; a new link replaces the last; a link stops working after its time', async () => {
    const { b: owner, cartId } = await guestCart();
    const stranger = new Browser(app);
    const refused = await stranger.post(`/api/cart/${cartId}/transfer`, {});
    expect([refused.status, code(refused)]).toEqual([403, 'cart_access_denied']);

    const first = await link(owner, cartId);
    const second = await link(owner, cartId);
    const old = await claim(stranger, cartId, first.token);
    expect([old.status, code(old)]).toEqual([403, 'cart_access_denied']);

    clock.advance(CART_TRANSFER_MINUTES * 60 + 1);
    try {
      const late = await claim(stranger, cartId, second.token);
      expect([late.status, code(late)]).toEqual([403, 'cart_access_denied']);
      // The hourly clean-up forgets links past their time.
      await cleanUpAuth(deps);
      expect(await db().selectFrom('cart_transfer').select('token_hash').where('cart_id', '=', cartId).execute()).toEqual([]);
    } finally {
      clock.advance(-(CART_TRANSFER_MINUTES * 60 + 1));
    }

    // A booked cart has nothing to carry over.
    const { b: buyer, cartId: booked } = await guestCart();
    await checkOutFree(buyer, booked, 'ada@example.com');
    const late = await buyer.post(`/api/cart/${booked}/transfer`, {});
    expect([late.status, code(late)]).toEqual([409, 'cart_not_pending']);
  });

  it("a link made before the cart was paid hands nothing over after it: the order stays the buyer's", async () => {
    const { b: laptop, cartId } = await guestCart();
    const made = await link(laptop, cartId);
    const orderId = (await checkOutFree(laptop, cartId, 'ada@example.com')).ticket_order._data[0].id;
    const phone = new Browser(app);
    const taken = await claim(phone, cartId, made.token);
    expect([taken.status, code(taken)]).toEqual([403, 'cart_access_denied']);
    // The holder of the old link reads nothing of the order; the buyer's browser still reads and manages it.
    expect((await phone.get(`/api/ticket_order/${orderId}?${SELLER}`)).status).toBe(404);
    expect((await laptop.get(`/api/ticket_order/${orderId}?${SELLER}`)).status).toBe(200);
    expect((await laptop.get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`)).status).toBe(200);
    const stored = await db().selectFrom('cart_transfer').select('used_at').where('cart_id', '=', cartId).executeTakeFirstOrThrow();
    expect(stored.used_at).toBeNull();
  });

  it("shows a member's cart to the holder of its link without handing it over", async () => {
    const member = new AuthBrowser(app);
    const login = await member.post(`/api/login?${SELLER}`, { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    expect(login.status).toBe(200);
    const { cartId } = await guestCart(1, member);
    const made = await link(member, cartId);
    const stranger = new Browser(app);
    const shown = await claim(stranger, cartId, made.token);
    expect(shown.status).toBe(200);
    const row = shown.body.cart._data[0];
    expect(row.ownedByPublicIdentity).toBe(false);
    expect(row.identity_id).toBe(login.body.identity._data[0].id);
    // Still the member's: the stranger cannot change it, the member still can, and the link was not used up.
    const change = await stranger.post(`/api/cart/${cartId}/modify?${SELLER}`, {
      add: [{ ticket_type_id: talk.typeId, event_session_id: talk.sessionId }],
    });
    expect(change.status).toBe(403);
    expect((await member.get(`/api/cart/${cartId}?${SELLER}`)).status).toBe(200);
    const stored = await db().selectFrom('cart_transfer').select('used_at').where('cart_id', '=', cartId).executeTakeFirstOrThrow();
    expect(stored.used_at).toBeNull();
  });

  for (const guard of [true, false]) {
    it(`one link hands its cart over once when ten browsers open it at the same moment${guard ? '' : ' (control: guard off, more than once)'}`, async () => {
      const { b: owner, cartId } = await guestCart();
      const made = await link(owner, cartId);
      setUnsafeSkipClaimGuardForTests(!guard);
      const browsers = Array.from({ length: 10 }, () => new Browser(app));
      const answers = await Promise.all(browsers.map((b) => claim(b, cartId, made.token)));
      const won = answers.filter((a) => a.status === 200).length;
      if (guard) {
        expect(won).toBe(1);
        expect(answers.filter((a) => a.status === 403)).toHaveLength(9);
        // The one that won owns the cart.
        const owners = await Promise.all(browsers.map((b) => b.get(`/api/cart/${cartId}?${SELLER}`)));
        expect(owners.filter((o) => o.status === 200)).toHaveLength(1);
      } else {
        expect(won).toBeGreaterThan(1);
      }
    });
  }
});

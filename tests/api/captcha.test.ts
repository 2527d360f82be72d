import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Challenge } from 'altcha-lib';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';
import { guestCartToPay, TEST_CARD_OK } from '../helpers/guest-checkout';
import { AuthBrowser, addUser, setAuth } from '../helpers/auth';
import { solveAltcha } from '../helpers/altcha';
import type { Deps } from '../../server/deps';
import { createAltchaProvider } from '../../server/services/captcha/altcha';

/**
 * The guest checkout's captcha (issue 14; spec section 2) with ALTCHA, the built-in provider: GET captcha/challenge
 * hands out a challenge signed with ALTCHA_HMAC_KEY; a guest checkout without a token, with a forged, foreign or
 * expired one, or with one used before is refused before anything is claimed; a solved one pays for one checkout;
 * logged-in users skip it. Solutions are solved here as the widget solves them (altcha-lib's solver).
 */
const KEY = 'test-altcha-hmac-key';

describeEachDatabase('guest checkout captcha (ALTCHA)', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  let other: CartFixture;
  let deps: Deps;
  const clock = testClock();
  const db = () => ctx().db;
  const refusal = (r: { body: any }) => r.body?._data?.[0];

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { now: clock.now() });
    other = await insertCartFixture(db(), { now: clock.now(), slug: 'other-museum' });
    for (const seller of [fx.sellerId, other.sellerId]) {
      await db()
        .updateTable('seller')
        .set({ config: sql`config || '{"captcha_provider":"altcha"}'::jsonb` })
        .where('id', '=', seller)
        .execute();
    }
    deps = testDeps(ctx(), clock.now);
    deps.config = { ...deps.config, altchaHmacKey: KEY };
    app = await buildTestApp(deps);
  });
  afterAll(async () => {
    await app?.close();
  });

  const challenge = async (slug = fx.slug): Promise<Challenge> => {
    const res = await new Browser(app).get(`/api/captcha/challenge?_seller=${slug}`);
    expect(res.status).toBe(200);
    expect(res.res.headers['cache-control']).toContain('no-store');
    const [row] = res.body.captcha_challenge._data;
    expect(row.provider).toBe('altcha');
    return row.challenge as Challenge;
  };
  const token = async (slug = fx.slug) => solveAltcha(await challenge(slug));
  const captcha = (t: string) => ({ captcha: { provider: 'altcha', token: t } });
  const untouched = async (cartId: string) => {
    expect((await db().selectFrom('cart').select('state').where('id', '=', cartId).executeTakeFirstOrThrow()).state).toBe('pending');
    expect(await db().selectFrom('payment').select('id').where('cart_id', '=', cartId).execute()).toHaveLength(0);
  };

  it('hands out signed challenges of the seller, and none where the seller asks for no captcha', async () => {
    const c = await challenge();
    expect(c.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', data: { seller: fx.sellerId } });
    expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(c.parameters.expiresAt! * 1000).toBeGreaterThan(Date.now() + 9 * 60_000);
    const plain = await insertCartFixture(db(), { now: clock.now(), slug: 'no-captcha' });
    const res = await new Browser(app).get(`/api/captcha/challenge?_seller=${plain.slug}`);
    expect(res.status).toBe(404);
    // Its guests check out without one.
    const g = await guestCartToPay(app, db(), plain, clock.now());
    expect((await g.pay()).status).toBe(200);
  });

  it('refuses a guest checkout without a token, and passes it with a solved one', async () => {
    const g = await guestCartToPay(app, db(), fx, clock.now());
    const missing = await g.pay();
    expect(missing.status).toBe(400);
    expect(refusal(missing)).toMatchObject({ _code: 'captcha_required', _extra: { provider: 'altcha' } });
    await untouched(g.cartId);
    const ok = await g.pay(captcha(await token()));
    expect(ok.status).toBe(200);
    expect(ok.body.ticket_order._data).toHaveLength(1);
  });

  it('refuses forged, foreign and expired tokens with captcha_invalid', async () => {
    const g = await guestCartToPay(app, db(), fx, clock.now());
    const solved = JSON.parse(Buffer.from(await token(), 'base64').toString());
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    // The widget's own test mode, which solves nothing.
    const testMode = b64({ challenge: null, solution: null, test: true });
    // A derived key that is not the one the work finds (the proof is the key); a challenge whose signature does not match.
    const key = solved.solution.derivedKey as string;
    const wrongKey = b64({ ...solved, solution: { ...solved.solution, derivedKey: (key[0] === '0' ? '1' : '0') + key.slice(1) } });
    const tampered = b64({ ...solved, challenge: { ...solved.challenge, parameters: { ...solved.challenge.parameters, cost: 1 } } });
    // A challenge this server never signed (another key), and another seller's.
    const foreignKey = await solveAltcha(
      (await createAltchaProvider('another-key').challenge({ sellerId: fx.sellerId, now: new Date() })) as unknown as Challenge,
    );
    const otherSeller = await token(other.slug);
    for (const t of [testMode, wrongKey, tampered, foreignKey, otherSeller, 'not base64 at all', b64('a string')]) {
      const res = await g.pay(captcha(t));
      expect(res.status, t.slice(0, 40)).toBe(400);
      expect(refusal(res)).toMatchObject({ _code: 'captcha_invalid', _extra: { reason: 'invalid' } });
    }
    const old = await createAltchaProvider(KEY).challenge({ sellerId: fx.sellerId, now: new Date(Date.now() - 11 * 60_000) });
    const expired = await g.pay(captcha(await solveAltcha(old as unknown as Challenge)));
    expect(expired.status).toBe(400);
    expect(refusal(expired)).toMatchObject({ _code: 'captcha_invalid', _extra: { reason: 'expired' } });
    await untouched(g.cartId);
  });

  it('takes one checkout per solution: the same token again is captcha_reused', async () => {
    const t = await token();
    const first = await guestCartToPay(app, db(), fx, clock.now());
    expect((await first.pay(captcha(t))).status).toBe(200);
    const second = await guestCartToPay(app, db(), fx, clock.now());
    const again = await second.pay(captcha(t));
    expect(again.status).toBe(409);
    expect(refusal(again)._code).toBe('captcha_reused');
    await untouched(second.cartId);
  });

  it('spends a token once when carts send it at once; without the primary key (the control) several pass', async () => {
    const race = async () => {
      const t = await token();
      const carts = await Promise.all(Array.from({ length: 5 }, () => guestCartToPay(app, db(), fx, clock.now())));
      const answers = await Promise.all(carts.map((c) => c.pay(captcha(t))));
      return answers.map((a) => a.status);
    };
    const guarded = await race();
    expect(guarded.filter((s) => s === 200)).toHaveLength(1);
    expect(guarded.filter((s) => s === 409)).toHaveLength(4);
    await sql`alter table captcha_use drop constraint captcha_use_pk`.execute(db());
    try {
      expect((await race()).filter((s) => s === 200).length).toBeGreaterThan(1);
    } finally {
      await sql`delete from captcha_use`.execute(db());
      await sql`alter table captcha_use add constraint captcha_use_pk primary key (provider, challenge_id)`.execute(db());
    }
  });

  it('asks no captcha of a logged-in shopper', async () => {
    await setAuth(db(), fx.sellerId, { method: 'password' });
    await addUser(db(), fx.sellerId, { email: 'grace@example.org', password: 'Correct-Horse-42' });
    const b = new AuthBrowser(app);
    expect((await b.post(`/api/login?_seller=${fx.slug}`, { username: 'grace@example.org', password: 'Correct-Horse-42' })).status).toBe(
      200,
    );
    const session = await addSession(db(), fx, { from: clock.now() });
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: session }],
    });
    expect(cart.status).toBe(200);
    const row = cart.body.cart._data[0];
    const paid = await b.post(`/api/cart/${row.id}/guest_checkout`, {
      amount: row.cart_fees.grand_totals.total_outstanding,
      gateway_id: 'test',
      gateway_data: TEST_CARD_OK,
      send_email: false,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  });

  it('stops guest checkouts when the seller asks for ALTCHA and the server has no key (captcha_unavailable)', async () => {
    const keyless = { ...deps, config: { ...deps.config, altchaHmacKey: undefined } };
    const bare = await buildTestApp(keyless);
    try {
      const g = await guestCartToPay(bare, db(), fx, clock.now());
      const res = await g.pay(captcha('x'));
      expect(res.status).toBe(503);
      expect(refusal(res)._code).toBe('captcha_unavailable');
      expect((await new Browser(bare).get(`/api/captcha/challenge?_seller=${fx.slug}`)).status).toBe(503);
    } finally {
      await bare.close();
    }
  });
});

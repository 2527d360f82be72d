import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { buildTestApp, testDeps } from '../helpers/app';
import { AuthBrowser } from '../helpers/auth';
import { insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';

const CARD = { card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getFullYear() + 4, cvc: '123' } };
const PASSWORD = 'Museum-Visit-2026';

/**
 * Accounts with a password at checkout (issue 13): POST user with `password` makes the purchaser's account as well as
 * the identity the checkout pays with; an e-mail that has an account is answered as the login answers it.
 */
describeEachDatabase('POST user with a password', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  const db = () => ctx().db;
  let n = 0;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { slug: 'signupshop' });
    app = await buildTestApp(testDeps(ctx()));
  });
  afterAll(async () => {
    await app?.close();
  });

  const person = (email: string, password?: string) => ({
    first_name: 'Sign',
    last_name: `Up ${++n}`,
    email,
    email_confirm: email,
    zip_code: '10001',
    ...(password !== undefined ? { password } : {}),
  });

  it('a new e-mail: the account is made with the identity; the order is paid with it and the visitor logs in to it', async () => {
    const b = new AuthBrowser(app);
    const cart = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
    });
    const made = await b.post(`/api/user?_seller=${fx.slug}`, person('new.member@example.org', PASSWORD));
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const identityId = made.body.identity._data[0].id as string;
    const user = await db()
      .selectFrom('app_user')
      .select(['identity_id', 'password_hash'])
      .where(sql<string>`lower(email)`, '=', 'new.member@example.org')
      .executeTakeFirstOrThrow();
    expect(user.identity_id).toBe(identityId);
    expect(user.password_hash).toMatch(/^scrypt\$/);
    const cartId = cart.body.cart._data[0].id;
    const paid = await b.post(`/api/cart/${cartId}/guest_checkout`, {
      amount: '26.50',
      gateway_id: 'test',
      gateway_data: CARD,
      guest_identity_id: identityId,
      send_email: false,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const other = new AuthBrowser(app);
    const login = await other.post(`/api/login?_seller=${fx.slug}`, { username: 'New.Member@example.org', password: PASSWORD });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const orders = await other.get(`/api/my/ticket_order?_seller=${fx.slug}`);
    expect(orders.status).toBe(200);
    expect(orders.body.ticket_order._data.map((o: { id: string }) => o.id)).toContain(paid.body.ticket_order._data[0].id);
  });

  it('a weak password is refused with the rules it breaks; nothing is made', async () => {
    const b = new AuthBrowser(app);
    const weak = await b.post(`/api/user?_seller=${fx.slug}`, person('weak@example.org', 'short'));
    expect([weak.status, weak.code, weak.body._data[0]._extra]).toEqual([
      400,
      'validation_failed',
      { field: 'password', rules: ['min_length', 'character_classes'] },
    ]);
    expect(await db().selectFrom('app_user').select('id').where('email', '=', 'weak@example.org').execute()).toEqual([]);
  });

  it('an e-mail with an account: incorrect_password, or email_in_use for the right one; no second account', async () => {
    const b = new AuthBrowser(app);
    const made = await b.post(`/api/user?_seller=${fx.slug}`, person('has.account@example.org', PASSWORD));
    expect(made.status).toBe(200);
    const wrong = await b.post(`/api/user?_seller=${fx.slug}`, person('HAS.account@example.org', 'Another-Pass-99'));
    expect([wrong.status, wrong.code]).toEqual([401, 'incorrect_password']);
    // The account's owner at checkout on another device gives the right password: no second account, a 409 instead.
    const device = new AuthBrowser(app);
    const metaBefore = await db()
      .selectFrom('identity')
      .select('meta')
      .where('id', '=', made.body.identity._data[0].id)
      .executeTakeFirstOrThrow();
    const right = await device.post(`/api/user?_seller=${fx.slug}`, person('has.account@example.org', PASSWORD));
    expect([right.status, right.code]).toEqual([409, 'email_in_use']);
    const accountIdentity = right.body._data[0]._extra.identity_id as string;
    const proof = right.body._data[0]._extra.identity_proof as string;
    expect(accountIdentity).toBe(
      (await db().selectFrom('app_user').select('identity_id').where('email', '=', 'has.account@example.org').executeTakeFirstOrThrow())
        .identity_id,
    );
    // The refusal wrote nothing: the account's identity is as it was.
    expect(await db().selectFrom('identity').select('meta').where('id', '=', accountIdentity).executeTakeFirstOrThrow()).toEqual(
      metaBefore,
    );
    // Spec section 7: the 409's identity is reused; the password proved it in this browser, whose checkout carries the
    // proof, so the order is the account's. The identity without the proof, or the proof in another browser, is refused.
    const cart = await device.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
    });
    const cartId = cart.body.cart._data[0].id;
    const stranger = new AuthBrowser(app);
    const strangerCart = await stranger.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: fx.sessionId }],
    });
    const pay = (who: AuthBrowser, id: string, extra: Record<string, string>) =>
      who.post(`/api/cart/${id}/guest_checkout`, { amount: '26.50', gateway_id: 'test', gateway_data: CARD, send_email: false, ...extra });
    const strangerId = strangerCart.body.cart._data[0].id;
    const stolen = await pay(stranger, strangerId, { guest_identity_id: accountIdentity, guest_identity_proof: proof });
    expect([stolen.status, stolen.code]).toEqual([403, 'identity_access_denied']);
    const bare = await pay(device, cartId, { guest_identity_id: accountIdentity });
    expect([bare.status, bare.code]).toEqual([403, 'identity_access_denied']);
    const paid = await pay(device, cartId, { guest_identity_id: accountIdentity, guest_identity_proof: proof });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const owner = new AuthBrowser(app);
    expect((await owner.post(`/api/login?_seller=${fx.slug}`, { username: 'has.account@example.org', password: PASSWORD })).status).toBe(
      200,
    );
    const orders = await owner.get(`/api/my/ticket_order?_seller=${fx.slug}`);
    expect(orders.body.ticket_order._data.map((o: { id: string }) => o.id)).toContain(paid.body.ticket_order._data[0].id);
    // A wrong password never names the identity.
    expect(wrong.body._data[0]._extra?.identity_id).toBeUndefined();
    const users = await db()
      .selectFrom('app_user')
      .select('id')
      .where(sql<string>`lower(email)`, '=', 'has.account@example.org')
      .execute();
    expect(users).toHaveLength(1);
    // Without a password the purchaser is a guest as before, whatever accounts the e-mail has.
    expect((await b.post(`/api/user?_seller=${fx.slug}`, person('has.account@example.org'))).status).toBe(200);
  });

  it('an account with no password yet: guest_account, and a set-password link is mailed', async () => {
    const b = new AuthBrowser(app);
    const guest = await b.post(`/api/user?_seller=${fx.slug}`, person('no.password@example.org'));
    await db()
      .insertInto('app_user')
      .values({
        seller_id: fx.sellerId,
        identity_id: guest.body.identity._data[0].id,
        email: 'no.password@example.org',
        password_hash: null,
      })
      .execute();
    const res = await b.post(`/api/user?_seller=${fx.slug}`, person('no.password@example.org', PASSWORD));
    expect([res.status, res.code]).toEqual([401, 'guest_account']);
    const mails = await db()
      .selectFrom('mail_outbox')
      .select(['to_address', 'text_body'])
      .where('to_address', '=', 'no.password@example.org')
      .execute();
    expect(mails.some((m) => /reset-password\?token=/.test(m.text_body))).toBe(true);
  });
});

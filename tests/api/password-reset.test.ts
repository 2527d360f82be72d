import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testClock, testDeps } from '../helpers/app';
import { AuthBrowser, addUser, buildAuthApp, insertOrder, lastMail, loadDemo, mailCount, resetTokenOfMail } from '../helpers/auth';
import { LIMITS } from '../../server/services/auth/rate-limit';
import { passwordProblems } from '../../src/domain/password';
import { sha256 } from '../../server/services/auth/tokens';

const NEW_PASSWORD = 'Fresh-Password-42';

describeEachDatabase('password reset', (ctx) => {
  let app: FastifyInstance;
  let sellerId: string;
  let serial = 0;
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;

  /** A user with a password, a reset request for it, and the token read from the mail. */
  async function requested(password = 'Old-Password-1') {
    const email = `reset${++serial}@example.com`;
    await addUser(db(), sellerId, { email, password });
    const b = new AuthBrowser(app);
    const r = await b.post('/api/password_reset/request?_seller=demo', { email: email.toUpperCase() });
    expect(r.status).toBe(200);
    const mail = await lastMail(db(), email, 'password_reset');
    return { b, email, r, mail, ...resetTokenOfMail(mail!.text_body)! };
  }

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    app = await buildAuthApp(testDeps(ctx(), clock.now));
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => clock.advance(LIMITS.reset_request_ip.windowSeconds));

  it('mails a single-use, hashed, one-hour link; validate names the e-mail; reset sets the password and ends sessions', async () => {
    const { b, email, token, path } = await requested();
    expect(path).toBe('/user/reset-password');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const row = await db().selectFrom('login_token').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow();
    expect(row.kind).toBe('password_reset');
    expect(new Date(row.expires_at).getTime() - clock.now().getTime()).toBe(3600_000);
    expect(await db().selectFrom('login_token').select('id').where('token_hash', '=', token).execute()).toHaveLength(0);

    const loggedIn = new AuthBrowser(app);
    expect((await loggedIn.post('/api/login?_seller=demo', { username: email, password: 'Old-Password-1' })).status).toBe(200);

    const v = await b.post('/api/password_reset/validate?_seller=demo', { token });
    expect(v.status).toBe(200);
    expect(v.body.identity._data[0].email).toBe(email);
    const done = await b.post('/api/password_reset/reset?_seller=demo', { token, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body.identity._data[0].email).toBe(email);

    expect((await loggedIn.get('/api/my/user?_seller=demo')).status).toBe(401);
    expect((await new AuthBrowser(app).post('/api/login?_seller=demo', { username: email, password: 'Old-Password-1' })).code).toBe(
      'incorrect_password',
    );
    expect((await new AuthBrowser(app).post('/api/login?_seller=demo', { username: email, password: NEW_PASSWORD })).status).toBe(200);

    const again = await b.post('/api/password_reset/reset?_seller=demo', { token, password: 'Another-Password-9' });
    expect(again.status).toBe(400);
    expect(again.code).toBe('validate_failed');
    expect(again.body._data[0]).not.toHaveProperty('_description');
    expect((await b.post('/api/password_reset/validate?_seller=demo', { token })).code).toBe('validate_failed');
  });

  it('answers the same for an unknown address and mails nothing', async () => {
    const r = await new AuthBrowser(app).post('/api/password_reset/request?_seller=demo', { email: 'nobody-here@example.com' });
    expect(r.status).toBe(200);
    const known = await requested();
    expect(r.body).toEqual(known.r.body);
    expect(await mailCount(db(), 'nobody-here@example.com')).toBe(0);
    const bad = await new AuthBrowser(app).post('/api/password_reset/request?_seller=demo', { email: 'not an email' });
    expect(bad.code).toBe('validate_not_email');
  });

  it('an unknown token is not_found, an expired one validate_failed, both with the reset-link text', async () => {
    const unknown = await new AuthBrowser(app).post('/api/password_reset/validate?_seller=demo', { token: 'a'.repeat(64) });
    expect(unknown.status).toBe(404);
    expect(unknown.code).toBe('not_found');
    expect(unknown.body._data[0]).not.toHaveProperty('_description');
    const { b, token } = await requested();
    clock.advance(3600 + 1);
    const late = await b.post('/api/password_reset/validate?_seller=demo', { token });
    expect(late.status).toBe(400);
    expect(late.code).toBe('validate_failed');
    expect(late.body._data[0]).not.toHaveProperty('_description');
    expect((await b.post('/api/password_reset/reset?_seller=demo', { token, password: NEW_PASSWORD })).code).toBe('validate_failed');
  });

  /** A guest purchaser identity as guest checkout makes it (one per checkout). */
  async function guestIdentity(email: string, meta: Record<string, unknown> = { guest: true }) {
    const row = await db()
      .insertInto('identity')
      .values({
        seller_id: sellerId,
        is_public: false,
        first_name: 'Gail',
        last_name: 'Guest',
        email,
        additional_info: '{}',
        meta: JSON.stringify(meta),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('a guest who bought twice creates an account from the link: one account holding both orders', async () => {
    const email = `guest${++serial}@example.com`;
    const first = await guestIdentity(email);
    const second = await guestIdentity(email);
    const older = await insertOrder(db(), sellerId, first, { now: new Date(clock.now().getTime() - 86_400_000) });
    const newer = await insertOrder(db(), sellerId, second, { now: clock.now() });
    // A guest identity of the address without any order, and a browser's pending cart on the older one, stay as they are.
    const idle = await guestIdentity(email);
    const pending = await db()
      .insertInto('cart')
      .values({ seller_id: sellerId, identity_id: first, state: 'pending', additional_info: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();

    const b = new AuthBrowser(app);
    expect((await b.post('/api/password_reset/request?_seller=demo', { email: email.toUpperCase() })).status).toBe(200);
    const user = await db().selectFrom('app_user').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(user.identity_id, 'the account is made on the newest purchase').toBe(second);
    expect(user.password_hash).toBeNull();
    expect((await new AuthBrowser(app).post('/api/login?_seller=demo', { username: email, password: NEW_PASSWORD })).status).not.toBe(200);

    const { token } = resetTokenOfMail((await lastMail(db(), email, 'password_reset'))!.text_body)!;
    const done = await b.post('/api/password_reset/reset?_seller=demo', { token, password: NEW_PASSWORD, password_confirm: NEW_PASSWORD });
    expect(done.status).toBe(200);
    const owners = await db()
      .selectFrom('ticket_order')
      .select(['id', 'identity_id'])
      .where('id', 'in', [older.orderId, newer.orderId])
      .execute();
    expect(owners.map((o) => o.identity_id)).toEqual([second, second]);
    expect((await db().selectFrom('cart').select('identity_id').where('id', '=', pending.id).executeTakeFirstOrThrow()).identity_id).toBe(
      first,
    );
    expect(await db().selectFrom('app_user').select('id').where('identity_id', 'in', [first, idle]).execute()).toHaveLength(0);

    const member = new AuthBrowser(app);
    expect((await member.post('/api/login?_seller=demo', { username: email, password: NEW_PASSWORD })).status).toBe(200);
    const orders = await member.get('/api/my/ticket_order?_seller=demo');
    expect(orders.status).toBe(200);
    expect(orders.body.ticket_order._data.map((o: { id: string }) => o.id).sort()).toEqual([older.orderId, newer.orderId].sort());
  });

  it('no account is made for an address without a purchase, nor from a purchase of another user', async () => {
    const email = `browser${++serial}@example.com`;
    await guestIdentity(email);
    expect((await new AuthBrowser(app).post('/api/password_reset/request?_seller=demo', { email })).status).toBe(200);
    expect(await mailCount(db(), email)).toBe(0);
    expect(await db().selectFrom('app_user').select('id').where('email', '=', email).execute()).toHaveLength(0);
    // An identity that is not a guest's (the catalogue's members, an account's own) is never taken over.
    const other = `member${++serial}@example.com`;
    const memberIdentity = await guestIdentity(other, {});
    await insertOrder(db(), sellerId, memberIdentity, { now: clock.now() });
    await new AuthBrowser(app).post('/api/password_reset/request?_seller=demo', { email: other });
    expect(await mailCount(db(), other)).toBe(0);
  });

  it('enforces the password rules of spec section 5 and keeps the token for another try', async () => {
    const { b, token } = await requested();
    for (const [password, rule] of [
      ['Ab1!', 'min_length'],
      [`Aa1!${'x'.repeat(251)}`, 'max_length'],
      [' Leading-Space-1', 'surrounding_space'],
      ['Trailing-Space-1 ', 'surrounding_space'],
      ['Tab\tInside-1', 'printable'],
      ['alllowercase', 'character_classes'],
    ] as const) {
      const r = await b.post('/api/password_reset/reset?_seller=demo', { token, password });
      expect(r.status).toBe(400);
      expect(r.code).toBe('validation_failed');
      expect(r.body._data[0]).not.toHaveProperty('_description');
      expect(r.body._data[0]._extra.rules).toContain(rule);
    }
    const mismatch = await b.post('/api/password_reset/reset?_seller=demo', {
      token,
      password: NEW_PASSWORD,
      password_confirm: 'Other-Password-1',
    });
    expect(mismatch.body._data[0]).not.toHaveProperty('_description');
    // 254 characters and 3 of 4 classes are fine.
    expect((await b.post('/api/password_reset/reset?_seller=demo', { token, password: `Aa1${'x'.repeat(251)}` })).status).toBe(200);
  });

  it('password rules: 3 of 4 classes, printable only', () => {
    expect(passwordProblems('MuseumDemo2026!')).toEqual([]);
    expect(passwordProblems('museumdemo2026!')).toEqual([]);
    expect(passwordProblems('museumdemo!!!!')).toEqual(['character_classes']);
    expect(passwordProblems('Museum\u0000Demo1')).toContain('printable');
    expect(passwordProblems('Museum Demo 1')).toEqual([]);
  });

  it('two resets racing on one token: exactly one wins', async () => {
    const { token } = await requested();
    const results = await Promise.all(
      [NEW_PASSWORD, 'Second-Password-7', 'Third-Password-8'].map((password) =>
        new AuthBrowser(app).post('/api/password_reset/reset?_seller=demo', { token, password }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.code === 'validate_failed')).toHaveLength(2);
  });

  it(`limits requests per e-mail (${LIMITS.reset_request_email.max}) and per address (${LIMITS.reset_request_ip.max})`, async () => {
    const { email } = await requested();
    for (let i = 1; i < LIMITS.reset_request_email.max; i++) {
      expect((await new AuthBrowser(app).post('/api/password_reset/request?_seller=demo', { email })).status).toBe(200);
    }
    const limited = await new AuthBrowser(app).post('/api/password_reset/request?_seller=demo', { email });
    expect(limited.status).toBe(429);
    expect(limited.code).toBe('rate_limited');
    expect(await mailCount(db(), email, 'password_reset')).toBe(LIMITS.reset_request_email.max);
    // The same limit applies to an address without an account, so the 429 reveals nothing.
    for (let i = 0; i < LIMITS.reset_request_email.max; i++)
      await new AuthBrowser(app).post('/api/password_reset/request?_seller=demo', { email: 'ghost@example.com' });
    expect((await new AuthBrowser(app).post('/api/password_reset/request?_seller=demo', { email: 'ghost@example.com' })).status).toBe(429);
    const b = new AuthBrowser(app);
    for (let i = 0; i < LIMITS.reset_request_ip.max; i++)
      await b.post('/api/password_reset/request?_seller=demo', { email: `ip${i}@example.com` });
    expect((await b.post('/api/password_reset/request?_seller=demo', { email: 'ip-last@example.com' })).status).toBe(429);
  });
});

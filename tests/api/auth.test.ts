import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testClock, testDeps } from '../helpers/app';
import {
  AuthBrowser,
  DEMO_MEMBER,
  addUser,
  buildAuthApp,
  identityOfEmail,
  lastMail,
  loadDemo,
  mailCount,
  resetTokenOfMail,
  setAuth,
} from '../helpers/auth';
import { LIMITS } from '../../server/services/auth/rate-limit';
import { sha256 } from '../../server/services/auth/tokens';

const LOGIN = '/api/login?_seller=demo';

describeEachDatabase('login and sessions', (ctx) => {
  let app: FastifyInstance;
  let sellerId: string;
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;
  const member = { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password };
  const sessionCookie = (r: { res: { cookies: Array<{ name: string }> } }) =>
    r.res.cookies.find((c) => c.name === 'storefront_session') as
      { name: string; value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; maxAge?: number; path?: string } | undefined;

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    app = await buildAuthApp(testDeps(ctx(), clock.now));
  });
  afterAll(async () => {
    await app?.close();
  });
  // A new rate-limit window for every test: each test states its own limits.
  beforeEach(async () => {
    clock.advance(LIMITS.login_ip.windowSeconds);
    await setAuth(db(), sellerId, { method: 'password' });
  });

  describe('password', () => {
    it('logs the demo member in with an httpOnly SameSite=Lax 14-day cookie whose token is stored only hashed', async () => {
      const b = new AuthBrowser(app);
      const r = await b.post(LOGIN, member);
      expect(r.status).toBe(200);
      expect(r.body.user._data[0]).toMatchObject({ email: DEMO_MEMBER.email, has_password: true, has_email: true });
      expect(r.body.identity._data[0]).toMatchObject({ first_name: 'Jordan', last_name: 'Rivera', email: DEMO_MEMBER.email });
      const c = sessionCookie(r)!;
      expect(c.value).toMatch(/^[0-9a-f]{64}$/);
      expect(c.httpOnly).toBe(true);
      expect(String(c.sameSite).toLowerCase()).toBe('lax');
      expect(c.secure).toBeFalsy();
      expect(c.path).toBe('/');
      expect(c.maxAge).toBe(14 * 86_400);
      const rows = await db().selectFrom('auth_session').selectAll().where('token_hash', '=', sha256(c.value)).execute();
      expect(rows).toHaveLength(1);
      expect(await db().selectFrom('auth_session').select('token_hash').where('token_hash', '=', c.value).execute()).toHaveLength(0);
      const me = await b.get('/api/my/user?_seller=demo&_embed=identity,identity.meta');
      expect(me.status).toBe(200);
      expect(me.body.identity._data[0].meta).toEqual({});
    });

    it('marks the cookie Secure when the request came over https (as a trusted proxy says: TRUST_PROXY)', async () => {
      const deps = testDeps(ctx(), clock.now);
      const proxied = await buildAuthApp({ ...deps, config: { ...deps.config, trustProxy: 1 } });
      const r = await new AuthBrowser(proxied).post(LOGIN, member, { 'x-forwarded-proto': 'https' });
      await proxied.close();
      expect(r.status).toBe(200);
      expect(sessionCookie(r)!.secure).toBe(true);
    });

    it("gives a new token at every login and ends the browser's previous session", async () => {
      const b = new AuthBrowser(app);
      const first = sessionCookie(await b.post(LOGIN, member))!.value;
      const second = sessionCookie(await b.post(LOGIN, member))!.value;
      expect(second).not.toBe(first);
      const old = await new AuthBrowser(app).request('GET', '/api/my/user?_seller=demo', undefined, {
        cookie: `storefront_session=${first}`,
      });
      expect(old.status).toBe(401);
      expect(old.code).toBe('not_authenticated');
      expect((await b.get('/api/my/user?_seller=demo')).status).toBe(200);
    });

    it('refuses a wrong password (incorrect_password), an unknown e-mail (invalid_credentials) and a bad address', async () => {
      const b = new AuthBrowser(app);
      const wrong = await b.post(LOGIN, { ...member, password: 'MuseumDemo2026?' });
      expect(wrong.status).toBe(401);
      expect(wrong.code).toBe('incorrect_password');
      expect(wrong.body._data[0]).not.toHaveProperty('_description');
      const unknown = await b.post(LOGIN, { username: 'nobody@example.com', password: 'Whatever123!' });
      expect(unknown.status).toBe(401);
      expect(unknown.code).toBe('invalid_credentials');
      expect(sessionCookie(unknown)).toBeUndefined();
      const bad = await b.post(LOGIN, { username: 'not-an-email', password: 'x' });
      expect(bad.status).toBe(400);
      expect(bad.code).toBe('validate_not_email');
      expect((await b.get('/api/my/user?_seller=demo')).status).toBe(401);
    });

    it('answers guest_account for a user without a password and mails a reset link', async () => {
      await addUser(db(), sellerId, { email: 'guest-account@example.com' });
      const r = await new AuthBrowser(app).post(LOGIN, { username: 'Guest-Account@example.com', password: 'Anything123!' });
      expect(r.status).toBe(401);
      expect(r.code).toBe('guest_account');
      expect(r.body._data[0]).not.toHaveProperty('_description');
      const mail = await lastMail(db(), 'guest-account@example.com', 'password_reset');
      expect(resetTokenOfMail(mail!.text_body)?.token).toMatch(/^[0-9a-f]{64}$/);
    });

    it('refuses writes without the X-Ticketing-App header', async () => {
      const r = await new AuthBrowser(app, undefined, {}).post(LOGIN, member);
      expect(r.status).toBe(403);
      expect(r.code).toBe('csrf_header_missing');
    });

    it(`limits wrong guesses per account and address (${LIMITS.login_account_ip.max}) without locking the owner out`, async () => {
      // Issue 20, finding 3: ten wrong passwords locked the account for everyone, the right password included.
      const attacker = new AuthBrowser(app);
      for (let i = 0; i < LIMITS.login_account_ip.max; i++) {
        expect((await attacker.post(LOGIN, { ...member, password: `Wrong-${i}-Password` })).code).toBe('incorrect_password');
      }
      const limited = await attacker.post(LOGIN, member);
      expect(limited.status).toBe(429);
      expect(limited.code).toBe('rate_limited');
      expect(limited.body._data[0]).not.toHaveProperty('_description');
      expect(Number(limited.res.headers['retry-after'])).toBeGreaterThan(0);
      // The owner, from their own address, logs in while the attacker is being limited.
      expect((await new AuthBrowser(app).post(LOGIN, member)).status).toBe(200);
      clock.advance(LIMITS.login_account_ip.windowSeconds);
      expect((await attacker.post(LOGIN, member)).status).toBe(200);
    });

    it("a right password gives its try back: typos between the owner's logins do not add up", async () => {
      clock.advance(LIMITS.login_account.windowSeconds);
      const owner = new AuthBrowser(app);
      // Without the refund these would be 2 x max - 1 tries at one address: the max+1th would be refused.
      for (let i = 0; i < LIMITS.login_account_ip.max - 1; i++) {
        expect((await owner.post(LOGIN, { ...member, password: 'Typo-Password-1' })).code).toBe('incorrect_password');
        expect((await owner.post(LOGIN, member)).status).toBe(200);
      }
      expect((await owner.post(LOGIN, member)).status).toBe(200);
    });
  });

  describe('sessions', () => {
    it('logout ends the session server-side and clears the cookie', async () => {
      const b = new AuthBrowser(app);
      const token = sessionCookie(await b.post(LOGIN, member))!.value;
      const out = await b.post('/api/logout?_seller=demo');
      expect(out.status).toBe(200);
      const cleared = sessionCookie(out)!;
      expect(cleared.value).toBe('');
      expect(await db().selectFrom('auth_session').select('user_id').where('token_hash', '=', sha256(token)).execute()).toHaveLength(0);
      const replay = await new AuthBrowser(app).request('GET', '/api/my/user?_seller=demo', undefined, {
        cookie: `storefront_session=${token}`,
      });
      expect(replay.status).toBe(401);
      expect((await new AuthBrowser(app).post('/api/logout')).status).toBe(200);
    });

    it('a session expires after 14 days, is bound to its seller, and a forged token is nobody', async () => {
      const b = new AuthBrowser(app);
      await b.post(LOGIN, member);
      await db()
        .insertInto('seller')
        .values({ slug: 'elsewhere', name: 'Elsewhere', config: '{}', strings: '{}', content_blocks: '[]' })
        .onConflict((oc) => oc.column('slug').doNothing())
        .execute();
      expect((await b.get('/api/my/user?_seller=elsewhere')).status).toBe(401);
      const forged = await new AuthBrowser(app).request('GET', '/api/my/user', undefined, {
        cookie: `storefront_session=${'a'.repeat(64)}`,
      });
      expect(forged.status).toBe(401);
      clock.advance(13 * 86_400);
      expect((await b.get('/api/my/user?_seller=demo')).status).toBe(200);
      clock.advance(86_400 + 1);
      expect((await b.get('/api/my/user?_seller=demo')).status).toBe(401);
    });
  });

  describe('modes', () => {
    it("'none' refuses with login_disabled", async () => {
      await setAuth(db(), sellerId, { method: 'none' });
      const r = await new AuthBrowser(app).post(LOGIN, member);
      expect(r.status).toBe(403);
      expect(r.code).toBe('login_disabled');
      expect(r.body._data[0]).not.toHaveProperty('_description');
    });

    it('external modes refuse with their codes, naming the login URL when configured', async () => {
      await setAuth(db(), sellerId, { method: 'auth0_ecomm' });
      const missing = await new AuthBrowser(app).post(LOGIN, member);
      expect(missing.code).toBe('external_login_url_missing');
      expect(missing.body._data[0]).not.toHaveProperty('_description');
      await setAuth(db(), sellerId, { method: 'sf_ecomm', external_login_url: 'https://login.example.com/start' });
      const external = await new AuthBrowser(app).post(LOGIN, member);
      expect(external.status).toBe(400);
      expect(external.code).toBe('external_login_required');
      expect(external.body._data[0]._extra.login_url).toBe('https://login.example.com/start');
    });

    it('a method the configured mode does not allow is an unknown auth method', async () => {
      const r = await new AuthBrowser(app).post(LOGIN, { method: 'scan_code', scan_code: DEMO_MEMBER.scanCode, zip_code: DEMO_MEMBER.zip });
      expect(r.status).toBe(400);
      expect(r.code).toBe('unknown_auth_method');
      expect(r.body._data[0]).not.toHaveProperty('_description');
    });

    it("scan_code: member id and ZIP log the member in; a wrong ZIP gets the spec text (or the seller's own)", async () => {
      await setAuth(db(), sellerId, { method: 'scan_code' });
      const ok = await new AuthBrowser(app).post(LOGIN, { scan_code: DEMO_MEMBER.scanCode, zip_code: DEMO_MEMBER.zip });
      expect(ok.status).toBe(200);
      expect(ok.body.user._data[0].email).toBe(DEMO_MEMBER.email);
      const lower = await new AuthBrowser(app).post(LOGIN, {
        scan_code: DEMO_MEMBER.scanCode.toLowerCase(),
        zip_code: ` ${DEMO_MEMBER.zip} `,
      });
      expect(lower.status).toBe(200);
      const bad = await new AuthBrowser(app).post(LOGIN, { scan_code: DEMO_MEMBER.scanCode, zip_code: '10025' });
      expect(bad.status).toBe(401);
      expect(bad.code).toBe('invalid_credentials');
      expect(bad.body._data[0]).not.toHaveProperty('_description');
      const unknown = await new AuthBrowser(app).post(LOGIN, { scan_code: 'M00000000', zip_code: DEMO_MEMBER.zip });
      expect(unknown.body._data[0]).not.toHaveProperty('_description');
      const noZip = await new AuthBrowser(app).post(LOGIN, { scan_code: DEMO_MEMBER.scanCode });
      expect(noZip.status).toBe(400);
      expect(noZip.code).toBe('validation_failed');
      await setAuth(db(), sellerId, { method: 'scan_code', invalid_credentials_text: 'Check your card.' });
      const custom = await new AuthBrowser(app).post(LOGIN, { scan_code: DEMO_MEMBER.scanCode, zip_code: '99999' });
      expect(custom.body._data[0]).not.toHaveProperty('_description');
    });

    it('scan_code_password: e-mail and member id', async () => {
      await setAuth(db(), sellerId, { method: 'scan_code_password' });
      const ok = await new AuthBrowser(app).post(LOGIN, { username: 'MEMBER@example.com', scan_code: DEMO_MEMBER.scanCode });
      expect(ok.status).toBe(200);
      const bad = await new AuthBrowser(app).post(LOGIN, { username: 'other@example.com', scan_code: DEMO_MEMBER.scanCode });
      expect(bad.status).toBe(401);
      expect(bad.code).toBe('invalid_credentials');
      expect(bad.body._data[0]).not.toHaveProperty('_description');
    });

    it('scan_code_last_name: member id and last name', async () => {
      await setAuth(db(), sellerId, { method: 'scan_code_last_name' });
      expect((await new AuthBrowser(app).post(LOGIN, { scan_code: DEMO_MEMBER.scanCode, last_name: 'rivera' })).status).toBe(200);
      const bad = await new AuthBrowser(app).post(LOGIN, { scan_code: DEMO_MEMBER.scanCode, last_name: 'Smith' });
      expect(bad.status).toBe(401);
      expect(bad.body._data[0]).not.toHaveProperty('_description');
    });

    it('a member with no account and no e-mail gets a user marked as having no e-mail', async () => {
      await setAuth(db(), sellerId, { method: 'scan_code_last_name' });
      const demo = await db().selectFrom('membership').selectAll().where('scan_code', '=', DEMO_MEMBER.scanCode).executeTakeFirstOrThrow();
      const identity = await db()
        .insertInto('identity')
        .values({ seller_id: sellerId, first_name: 'Pat', last_name: 'Nomail', additional_info: '{}', meta: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db()
        .insertInto('membership')
        .values({
          seller_id: sellerId,
          identity_id: identity.id,
          role_id: demo.role_id,
          membership_program_id: demo.membership_program_id,
          scan_code: 'M29990001',
          valid_from: demo.valid_from,
          valid_to: demo.valid_to,
        })
        .execute();
      const b = new AuthBrowser(app);
      const r = await b.post(LOGIN, { scan_code: 'M29990001', last_name: 'Nomail' });
      expect(r.status).toBe(200);
      expect(r.body.user._data[0]).toMatchObject({ has_email: false, email: null, has_password: false });
      // A second login finds the same user.
      const again = await new AuthBrowser(app).post(LOGIN, { scan_code: 'M29990001', last_name: 'Nomail' });
      expect(again.body.user._data[0].id).toBe(r.body.user._data[0].id);
    });

    it(`limits attempts per address: the ${LIMITS.login_ip.max + 1}th member-id try from one address is 429`, async () => {
      await setAuth(db(), sellerId, { method: 'scan_code' });
      const b = new AuthBrowser(app);
      for (let i = 0; i < LIMITS.login_ip.max; i++) {
        expect((await b.post(LOGIN, { scan_code: `X${i}`, zip_code: '10024' })).code).toBe('invalid_credentials');
      }
      const limited = await b.post(LOGIN, { scan_code: DEMO_MEMBER.scanCode, zip_code: DEMO_MEMBER.zip });
      expect(limited.status).toBe(429);
      expect(limited.code).toBe('rate_limited');
      // Another address is not affected.
      expect((await new AuthBrowser(app).post(LOGIN, { scan_code: DEMO_MEMBER.scanCode, zip_code: DEMO_MEMBER.zip })).status).toBe(200);
      const row = await db()
        .selectFrom('rate_limit')
        .select('count')
        .where('key', 'like', `login_ip:${sellerId}:${b.ip}`)
        .executeTakeFirstOrThrow();
      expect(row.count).toBe(LIMITS.login_ip.max);
    });
  });

  it('answers never carry password or token hashes', async () => {
    const b = new AuthBrowser(app);
    const r = await b.post(LOGIN, member);
    const me = await b.get('/api/my/user?_seller=demo&_embed=identity,identity.meta');
    for (const text of [r.res.payload, me.res.payload]) {
      expect(text).not.toMatch(/scrypt\$|password_hash|token_hash/);
      expect(text).not.toContain(b.cookies.get('storefront_session')!);
    }
    const { identity_id } = await identityOfEmail(db(), sellerId, DEMO_MEMBER.email);
    expect(me.body.identity._data[0].id).toBe(identity_id);
    expect(await mailCount(db(), DEMO_MEMBER.email, 'password_reset')).toBe(0);
  });
});

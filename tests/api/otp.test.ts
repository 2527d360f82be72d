import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testClock, testDeps } from '../helpers/app';
import { AuthBrowser, DEMO_MEMBER, buildAuthApp, lastMail, loadDemo, mailCount, otpOfMail, setAuth } from '../helpers/auth';
import { LIMITS } from '../../server/services/auth/rate-limit';
import { sha256 } from '../../server/services/auth/tokens';

const REQUEST = '/api/login/request_otp';
const VERIFY = '/api/login/otp_verify?_seller=demo';

describeEachDatabase('one-time passcode login', (ctx) => {
  let app: FastifyInstance;
  let sellerId: string;
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;

  /** Asks for a passcode as the storefront does and reads it from the outbox. */
  async function requestCode(b = new AuthBrowser(app), email = DEMO_MEMBER.email) {
    const r = await b.post(REQUEST, { email, state: 'demo' });
    expect(r.status).toBe(200);
    const mail = await lastMail(db(), email, 'login_otp');
    return { b, token: r.body.token as string, mail, ...otpOfMail(mail!.text_body) };
  }
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    app = await buildAuthApp(testDeps(ctx(), clock.now));
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    clock.advance(LIMITS.otp_request_email.windowSeconds);
    await setAuth(db(), sellerId, { method: 'otp' });
  });

  it('mails a 6-digit code and a one-time link carrying the code and the token; the code logs in once', async () => {
    const { b, token, code, otp, path, mail } = await requestCode();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(code).toMatch(/^\d{6}$/);
    expect(otp).toBe(code);
    expect(otpOfMail(mail!.text_body).linkToken).toBe(token);
    expect(path).toBe('/login/callback');
    expect(mail!.html_body).toContain(code);
    const row = await db().selectFrom('login_token').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow();
    expect(row.kind).toBe('otp');
    expect(row.code_hash).not.toContain(code!);
    expect(new Date(row.expires_at).getTime() - clock.now().getTime()).toBe(10 * 60_000);
    const ok = await b.post(VERIFY, { token, otp: code });
    expect(ok.status).toBe(200);
    expect(ok.body.user._data[0].email).toBe(DEMO_MEMBER.email);
    expect(b.cookies.get('storefront_session')).toMatch(/^[0-9a-f]{64}$/);
    expect((await b.get('/api/my/user?_seller=demo')).status).toBe(200);
    const reuse = await new AuthBrowser(app).post(VERIFY, { token, otp: code });
    expect(reuse.status).toBe(401);
    expect(reuse.code).toBe('not_authorized');
  });

  it('POST login with method otp takes the token and code too (the link opened on another device)', async () => {
    const { token, otp } = await requestCode();
    const r = await new AuthBrowser(app).post('/api/login?_seller=demo', { method: 'otp', token, otp });
    expect(r.status).toBe(200);
  });

  it('counts wrong codes: otp_incorrect with the remaining attempts, then the 4th try fails even with the right code', async () => {
    const { b, token, code } = await requestCode();
    for (const remaining of [2, 1, 0]) {
      const r = await b.post(VERIFY, { token, otp: wrong(code!) });
      expect(r.status).toBe(401);
      expect(r.code).toBe('otp_incorrect');
      expect(r.body._data[0]).not.toHaveProperty('_description');
      expect(r.body._data[0]._extra.remaining_attempts).toBe(remaining);
    }
    const fourth = await b.post(VERIFY, { token, otp: code });
    expect(fourth.status).toBe(401);
    expect(fourth.code).toBe('not_authorized');
    expect(b.cookies.has('storefront_session')).toBe(false);
  });

  it('parallel guesses cannot exceed 3 tries', async () => {
    const { token, code } = await requestCode();
    const results = await Promise.all(Array.from({ length: 8 }, () => new AuthBrowser(app).post(VERIFY, { token, otp: wrong(code!) })));
    expect(results.filter((r) => r.code === 'otp_incorrect')).toHaveLength(3);
    expect(results.filter((r) => r.code === 'not_authorized')).toHaveLength(5);
    expect((await new AuthBrowser(app).post(VERIFY, { token, otp: code })).code).toBe('not_authorized');
  });

  it('a code older than 10 minutes is otp_token_expired; a made-up token is not_authorized', async () => {
    const { b, token, code } = await requestCode();
    clock.advance(10 * 60 + 1);
    const r = await b.post(VERIFY, { token, otp: code });
    expect(r.status).toBe(401);
    expect(r.code).toBe('otp_token_expired');
    const made = await b.post(VERIFY, { token: 'f'.repeat(64), otp: code });
    expect(made.code).toBe('not_authorized');
  });

  it('answers the same for an address without an account, which gets no code', async () => {
    const b = new AuthBrowser(app);
    const r = await b.post(REQUEST, { email: 'stranger@example.com', state: 'demo' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['expires_in', 'token']);
    expect(r.body.token).toMatch(/^[0-9a-f]{64}$/);
    expect(await mailCount(db(), 'stranger@example.com', 'login_otp')).toBe(0);
    expect(await mailCount(db(), 'stranger@example.com', 'login_no_account')).toBe(1);
    for (const otp of ['000000', '123456', '999999'])
      expect((await b.post(VERIFY, { token: r.body.token, otp })).code).toBe('otp_incorrect');
  });

  it('refuses a bad address (validate_not_email), a missing one (validation_failed), and otp requests in password mode', async () => {
    const bad = await new AuthBrowser(app).post(REQUEST, { email: 'nope', state: 'demo' });
    expect(bad.status).toBe(400);
    expect(bad.code).toBe('validate_not_email');
    const none = await new AuthBrowser(app).post(REQUEST, { state: 'demo' });
    expect(none.code).toBe('validation_failed');
    await setAuth(db(), sellerId, { method: 'password' });
    const off = await new AuthBrowser(app).post(REQUEST, { email: DEMO_MEMBER.email, state: 'demo' });
    expect(off.code).toBe('unknown_auth_method');
  });

  it('otp_or_password allows both', async () => {
    await setAuth(db(), sellerId, { method: 'otp_or_password' });
    const { token, code } = await requestCode();
    expect((await new AuthBrowser(app).post(VERIFY, { token, otp: code })).status).toBe(200);
    const pw = await new AuthBrowser(app).post('/api/login?_seller=demo', { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password });
    expect(pw.status).toBe(200);
  });

  it('the link follows the configured login path', async () => {
    await setAuth(db(), sellerId, { method: 'otp', login_path: '/' });
    const { path } = await requestCode();
    expect(path).toBe('/');
  });

  it(`limits requests per e-mail (${LIMITS.otp_request_email.max}) and per address (${LIMITS.otp_request_ip.max})`, async () => {
    for (let i = 0; i < LIMITS.otp_request_email.max; i++) {
      expect((await new AuthBrowser(app).post(REQUEST, { email: DEMO_MEMBER.email, state: 'demo' })).status).toBe(200);
    }
    const perEmail = await new AuthBrowser(app).post(REQUEST, { email: DEMO_MEMBER.email, state: 'demo' });
    expect(perEmail.status).toBe(429);
    expect(perEmail.code).toBe('rate_limited');
    const b = new AuthBrowser(app);
    for (let i = 0; i < LIMITS.otp_request_ip.max; i++) {
      expect((await b.post(REQUEST, { email: `visitor${i}@example.com`, state: 'demo' })).status).toBe(200);
    }
    const perIp = await b.post(REQUEST, { email: 'visitor-last@example.com', state: 'demo' });
    expect(perIp.status).toBe(429);
    expect(perIp.res.headers['retry-after']).toBeDefined();
  });

  it(`limits verify tries per address (${LIMITS.otp_verify_ip.max})`, async () => {
    const b = new AuthBrowser(app);
    for (let i = 0; i < LIMITS.otp_verify_ip.max; i++) await b.post(VERIFY, { token: 'e'.repeat(64), otp: '123456' });
    const { token, code } = await requestCode();
    const limited = await b.post(VERIFY, { token, otp: code });
    expect(limited.status).toBe(429);
    expect((await new AuthBrowser(app).post(VERIFY, { token, otp: code })).status).toBe(200);
  });
});

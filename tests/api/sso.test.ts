import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testClock, testDeps } from '../helpers/app';
import { AuthBrowser, DEMO_MEMBER, buildAuthApp, identityOfEmail, loadDemo, setAuth } from '../helpers/auth';
import { CLIENT_ID, CLIENT_SECRET, PUBLIC_CLIENT_ID, startTestIdp, type TestIdp } from '../helpers/oidc-idp';
import { sameSitePath } from '../../server/routes/auth';
import { oidcClientSecret, readOidcClientSecrets } from '../../server/config';
import type { Deps } from '../../server/deps';
import { getValidators } from '../../server/catalog/read';
import { cleanUpAuth } from '../../server/jobs/auth-cleanup';

/**
 * Single sign-on through OpenID Connect (issue 18), against a real provider (oidc-provider on 127.0.0.1): the server
 * discovers it, sends the browser there with PKCE, state and nonce, and on the return exchanges the code over HTTP.
 * The browser side is AuthBrowser (the storefront's cookies) and `throughProvider` (the browser at the provider).
 */
const PUBLIC_URL = 'http://localhost:3000';
const LOGIN_FAILED = (code: string) => `${PUBLIC_URL}/login/callback?auth_error=${code}`;

/** The browser at the provider: follows its redirects with its cookies, signs in as `email` (or cancels) on its
 *  login page, and returns the storefront address the provider sends it back to (path and query). */
async function throughProvider(authUrl: string, action: { email: string } | 'cancel'): Promise<string> {
  const jar = new Map<string, string>();
  const origin = new URL(authUrl).origin;
  let url = authUrl;
  let form: string | undefined;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      method: form === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      body: form,
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (value && !/expires=Thu, 01 Jan 1970/i.test(set)) jar.set(pair.slice(0, at), value);
      else jar.delete(pair.slice(0, at));
    }
    const location = res.headers.get('location');
    form = undefined;
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== origin) return next.href;
      url = next.href;
      continue;
    }
    const text = await res.text();
    if (res.status === 200 && /\/interaction\/[\w-]+$/.test(url)) {
      url = `${url}/${action === 'cancel' ? 'abort' : 'login'}`;
      form = action === 'cancel' ? '' : new URLSearchParams({ email: action.email }).toString();
      continue;
    }
    throw new Error(`the provider answered ${res.status} at ${url}: ${text.slice(0, 300)}`);
  }
  throw new Error('too many redirects at the provider');
}

/** The storefront part of a provider's return address (what the browser asks this server for). */
const local = (href: string) => {
  const u = new URL(href);
  expect(u.origin).toBe(PUBLIC_URL);
  return `${u.pathname}${u.search}`;
};

describeEachDatabase('single sign-on through OpenID Connect', (ctx) => {
  let app: FastifyInstance;
  let deps: Deps;
  let sellerId: string;
  let idp: TestIdp;
  let adultTypeId: string;
  let sessionId: string;
  const clock = testClock(new Date());
  const db = () => ctx().db;
  const useSso = (oidc: Record<string, unknown> | null = { issuer: idp.issuer, client_id: CLIENT_ID }, method = 'sso') =>
    setAuth(db(), sellerId, { method, ...(oidc ? { oidc } : {}) });

  beforeAll(async () => {
    idp = await startTestIdp(PUBLIC_URL, [
      { sub: 'ada', email: 'Ada.Lovelace@example.com', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' },
      { sub: 'member', email: DEMO_MEMBER.email, email_verified: true },
      { sub: 'unverified', email: 'unverified@example.com', email_verified: false },
      { sub: 'cart', email: 'cart.keeper@example.com', email_verified: true },
    ]);
    sellerId = await loadDemo(db(), clock.now());
    deps = testDeps(ctx(), clock.now);
    deps.config.oidcClientSecrets = readOidcClientSecrets({ OIDC_CLIENT_SECRET_DEMO: CLIENT_SECRET });
    app = await buildAuthApp(deps);
    const ids = await db()
      .selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
      .innerJoin('event_session', 'event_session.event_template_id', 'event_template.id')
      .select(['ticket_type.id as type', 'event_session.id as session'])
      .where('event_template.seller_id', '=', sellerId)
      .where('event_template.key', '=', 'general-admission')
      .where('ticket_type.key', '=', 'adult')
      .where('ticket_group.key', '=', 'general')
      .where('event_session.start_datetime', '>', new Date(clock.now().getTime() + 86_400_000))
      .orderBy('event_session.start_datetime')
      .executeTakeFirstOrThrow();
    adultTypeId = ids.type;
    sessionId = ids.session;
  });
  afterAll(async () => {
    await app?.close();
    await idp?.close();
  });

  /** GET sso/start in this browser: the provider's authorisation URL (checked for PKCE, state and nonce). */
  const start = async (b: AuthBrowser, query = 'redirect=/events') => {
    const res = await b.get(`/api/sso/start?_seller=demo&${query}`);
    expect(res.status, String(res.body)).toBe(302);
    const to = new URL(res.res.headers.location as string);
    expect(to.origin).toBe(idp.issuer);
    return to;
  };

  it('logs a new user in by the verified e-mail: PKCE, state and nonce out, session cookie and the saved path back', async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const to = await start(b, 'redirect=http://localhost:3000/checkout');
    expect(to.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(to.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/sso/callback`);
    expect(to.searchParams.get('response_type')).toBe('code');
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(to.searchParams.get('scope')).toBe('openid email profile');
    const state = to.searchParams.get('state')!;
    expect(state.length).toBeGreaterThanOrEqual(32);
    expect(to.searchParams.get('nonce')!.length).toBeGreaterThanOrEqual(32);
    // The browser holds the state; the database only its hash, with the verifier that never leaves the server.
    expect(b.cookies.get('storefront_sso_state')).toBe(state);
    const kept = await db().selectFrom('sso_attempt').selectAll().execute();
    expect(kept.some((a) => a.state_hash === state)).toBe(false);
    expect(to.href).not.toContain(kept[kept.length - 1].code_verifier);

    const back = await b.get(local(await throughProvider(to.href, { email: 'ada.lovelace@example.com' })));
    expect(back.status).toBe(302);
    expect(back.res.headers.location).toBe('/checkout');
    expect(b.cookies.has('storefront_sso_state')).toBe(false);
    const me = await b.get('/api/my/user?_seller=demo');
    expect(me.status).toBe(200);
    expect(me.body.user._data[0].email).toBe('ada.lovelace@example.com');
    expect(me.body.user._data[0].has_password).toBe(false);
    expect(me.body.identity._data[0]).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
    expect(await db().selectFrom('sso_attempt').selectAll().execute()).toEqual([]);

    // The same person again: the same user, not a second one.
    const again = new AuthBrowser(app);
    await again.get(local(await throughProvider((await start(again)).href, { email: 'ada.lovelace@example.com' })));
    expect((await again.get('/api/my/user?_seller=demo')).body.user._data[0].id).toBe(me.body.user._data[0].id);
  });

  it("logging out of a single sign-on session sends the visitor to end the provider's session too; a password session does not", async () => {
    await useSso();
    const b = new AuthBrowser(app);
    await b.get(local(await throughProvider((await start(b)).href, { email: 'ada.lovelace@example.com' })));
    expect((await b.get('/api/my/user?_seller=demo')).status).toBe(200);
    const out = await b.post('/api/logout?_seller=demo', {});
    expect(out.status).toBe(200);
    const row = out.body.logout._data[0];
    expect(row.logged_out).toBe(true);
    // OpenID Connect RP-initiated logout: the provider's end_session_endpoint, the ID token it issued, and back home.
    const to = new URL(row.end_session_url);
    expect(`${to.origin}${to.pathname}`).toBe(`${idp.issuer}/session/end`);
    expect(to.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/`);
    const hint = to.searchParams.get('id_token_hint')!;
    const claims = JSON.parse(Buffer.from(hint.split('.')[1]!, 'base64url').toString('utf8'));
    expect([claims.iss, claims.aud, claims.sub]).toEqual([idp.issuer, CLIENT_ID, 'ada']);
    // The session here is over whatever the provider does, and the ID token went with it.
    expect((await b.get('/api/my/user?_seller=demo')).status).toBe(401);
    expect(await db().selectFrom('auth_session').select('token_hash').where('sso_id_token', '=', hint).execute()).toEqual([]);
    // The provider accepts the request: it asks the visitor to confirm the sign-out (its own page), no error.
    const confirm = await fetch(to);
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toMatch(/logout|sign-?out/i);

    await useSso(null, 'password');
    const p = new AuthBrowser(app);
    expect((await p.post('/api/login?_seller=demo', { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password })).status).toBe(200);
    const plain = await p.post('/api/logout?_seller=demo', {});
    expect(plain.body.logout._data).toEqual([{ logged_out: true }]);
  });

  it('links an existing account by its e-mail (the demo member, who also has a password)', async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const back = await b.get(local(await throughProvider((await start(b)).href, { email: DEMO_MEMBER.email })));
    expect(back.res.headers.location).toBe('/events');
    const member = await identityOfEmail(db(), sellerId, DEMO_MEMBER.email);
    const me = (await b.get('/api/my/user?_seller=demo')).body.user._data[0];
    expect([me.id, me.identity_id, me.has_password]).toEqual([member.id, member.identity_id, true]);
  });

  it("carries the visitor's guest cart over to the logged-in user", async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const made = await b.post('/api/cart/modify?_seller=demo', { add: [{ ticket_type_id: adultTypeId, event_session_id: sessionId }] });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const cart = made.body.cart._data[0];
    expect(cart.ownedByPublicIdentity).toBe(true);
    const back = await b.get(
      local(
        await throughProvider((await start(b, `redirect=/checkout/${cart.id}&cart_id=${cart.id}`)).href, {
          email: 'cart.keeper@example.com',
        }),
      ),
    );
    expect(back.res.headers.location).toBe(`/checkout/${cart.id}`);
    const user = await identityOfEmail(db(), sellerId, 'cart.keeper@example.com');
    const row = await db()
      .selectFrom('cart')
      .select(['identity_id', 'owner_token_hash'])
      .where('id', '=', cart.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ identity_id: user.identity_id, owner_token_hash: null });
    const mine = await b.get(`/api/cart/${cart.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.cart._data[0]).toMatchObject({ identity_id: user.identity_id, ownedByPublicIdentity: false });
  });

  it('refuses an e-mail the provider has not verified, and creates no user', async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const back = await b.get(local(await throughProvider((await start(b)).href, { email: 'unverified@example.com' })));
    expect(back.res.headers.location).toBe(LOGIN_FAILED('sso_email_unverified'));
    expect((await b.get('/api/my/user?_seller=demo')).status).toBe(401);
    const users = await db().selectFrom('app_user').select('id').where('email', '=', 'unverified@example.com').execute();
    expect(users).toEqual([]);
  });

  it('refuses a return whose state is not the one this browser started, or from another browser (login CSRF)', async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const returned = new URL(await throughProvider((await start(b)).href, { email: 'ada.lovelace@example.com' }));
    // Another browser given this return address (an attacker's login planted in a victim's browser): no cookie.
    const victim = new AuthBrowser(app);
    const planted = await victim.get(local(returned.href));
    expect(planted.res.headers.location).toBe(LOGIN_FAILED('sso_state_invalid'));
    expect((await victim.get('/api/my/user?_seller=demo')).status).toBe(401);
    // The starting browser, with the state changed on the way back.
    const altered = new URL(returned);
    altered.searchParams.set('state', `${returned.searchParams.get('state')}x`);
    const bad = await b.get(local(altered.href));
    expect(bad.res.headers.location).toBe(LOGIN_FAILED('sso_state_invalid'));
    expect((await b.get('/api/my/user?_seller=demo')).status).toBe(401);
    // A mismatch spends the attempt: the genuine return afterwards is refused too.
    b.cookies.set('storefront_sso_state', returned.searchParams.get('state')!);
    expect((await b.get(local(returned.href))).res.headers.location).toBe(LOGIN_FAILED('sso_state_invalid'));
  });

  it('honours a return once: replaying it (cookie and all) is refused', async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const to = await start(b);
    const returned = await throughProvider(to.href, { email: 'ada.lovelace@example.com' });
    expect((await b.get(local(returned))).res.headers.location).toBe('/events');
    const replay = new AuthBrowser(app);
    replay.cookies.set('storefront_sso_state', to.searchParams.get('state')!);
    expect((await replay.get(local(returned))).res.headers.location).toBe(LOGIN_FAILED('sso_state_invalid'));
    expect((await replay.get('/api/my/user?_seller=demo')).status).toBe(401);
  });

  it('refuses an ID token whose nonce is not the one sent (a nonce changed on the way out)', async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const to = await start(b);
    to.searchParams.set('nonce', 'an-attacker-chosen-nonce-of-decent-length-000');
    const back = await b.get(local(await throughProvider(to.href, { email: 'ada.lovelace@example.com' })));
    expect(back.res.headers.location).toBe(LOGIN_FAILED('sso_token_failed'));
    expect((await b.get('/api/my/user?_seller=demo')).status).toBe(401);
  });

  it('refuses a login that took too long at the provider', async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const returned = await throughProvider((await start(b)).href, { email: 'ada.lovelace@example.com' });
    const waiting = new AuthBrowser(app);
    await start(waiting);
    clock.advance(11 * 60);
    try {
      expect((await b.get(local(returned))).res.headers.location).toBe(LOGIN_FAILED('sso_state_invalid'));
      // A login never brought back is swept with the expired login tokens.
      expect(await db().selectFrom('sso_attempt').select('state_hash').execute()).toHaveLength(1);
      await cleanUpAuth(deps);
      expect(await db().selectFrom('sso_attempt').select('state_hash').execute()).toEqual([]);
    } finally {
      clock.advance(-11 * 60);
    }
  });

  it("sends the provider's refusal (the shopper cancelled) back as auth_error, without its English", async () => {
    await useSso();
    const b = new AuthBrowser(app);
    const returned = await throughProvider((await start(b)).href, 'cancel');
    expect(new URL(returned).searchParams.get('error')).toBe('access_denied');
    const back = await b.get(local(returned));
    expect(back.res.headers.location).toBe(LOGIN_FAILED('sso_provider_error'));
  });

  it('a wrong client secret fails the code exchange; a public client logs in with PKCE alone', async () => {
    await useSso();
    deps.config.oidcClientSecrets = readOidcClientSecrets({ OIDC_CLIENT_SECRET: 'not-the-secret' });
    try {
      const b = new AuthBrowser(app);
      const back = await b.get(local(await throughProvider((await start(b)).href, { email: 'ada.lovelace@example.com' })));
      expect(back.res.headers.location).toBe(LOGIN_FAILED('sso_token_failed'));
      deps.config.oidcClientSecrets = {};
      await useSso({ issuer: idp.issuer, client_id: PUBLIC_CLIENT_ID }, 'hosted');
      const p = new AuthBrowser(app);
      const ok = await p.get(local(await throughProvider((await start(p)).href, { email: 'ada.lovelace@example.com' })));
      expect(ok.res.headers.location).toBe('/events');
      expect((await p.get('/api/my/user?_seller=demo')).status).toBe(200);
    } finally {
      deps.config.oidcClientSecrets = readOidcClientSecrets({ OIDC_CLIENT_SECRET_DEMO: CLIENT_SECRET });
    }
  });

  it('never redirects off the storefront: a foreign return address becomes /', async () => {
    await useSso();
    for (const redirect of ['https://evil.example/steal', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const b = new AuthBrowser(app);
      const to = await start(b, `redirect=${encodeURIComponent(redirect)}`);
      const back = await b.get(local(await throughProvider(to.href, { email: 'ada.lovelace@example.com' })));
      expect(back.res.headers.location, redirect).toBe('/');
    }
  });

  it('refuses sellers that do not log in this way; an unreachable provider is auth_error=sso_unavailable', async () => {
    await useSso(null);
    const missing = await new AuthBrowser(app).get('/api/sso/start?_seller=demo');
    expect([missing.status, missing.code]).toEqual([400, 'external_login_url_missing']);
    await setAuth(db(), sellerId, { method: 'password' });
    const other = await new AuthBrowser(app).get('/api/sso/start?_seller=demo');
    expect([other.status, other.code]).toEqual([400, 'unknown_auth_method']);
    await useSso({ issuer: 'http://127.0.0.1:9/', client_id: CLIENT_ID });
    const down = await new AuthBrowser(app).get('/api/sso/start?_seller=demo');
    expect([down.status, down.res.headers.location]).toEqual([302, LOGIN_FAILED('sso_unavailable')]);
    // Plain http only for a provider on this machine.
    await useSso({ issuer: 'http://idp.example/', client_id: CLIENT_ID });
    expect((await new AuthBrowser(app).get('/api/sso/start?_seller=demo')).res.headers.location).toBe(LOGIN_FAILED('sso_unavailable'));
    // Not under the publicly cacheable prefix.
    await useSso();
    expect((await new AuthBrowser(app).get('/cached_api/sso/start?_seller=demo')).status).toBe(404);
  });

  it('a password login to an sso seller is told where single sign-on starts', async () => {
    await useSso();
    const refused = await new AuthBrowser(app).post('/api/login?_seller=demo', {
      username: DEMO_MEMBER.email,
      password: DEMO_MEMBER.password,
    });
    expect([refused.status, refused.code]).toEqual([400, 'external_login_required']);
    expect(refused.body._data[0]._extra).toEqual({ method: 'sso', login_url: '/api/sso/start?_seller=demo' });
  });

  it('limits the logins one address may start (each keeps a row until it returns or expires)', async () => {
    await useSso();
    const b = new AuthBrowser(app);
    for (let i = 0; i < 30; i++) expect((await b.get('/api/sso/start?_seller=demo')).status).toBe(302);
    const refused = await b.get('/api/sso/start?_seller=demo');
    expect([refused.status, refused.code]).toEqual([429, 'rate_limited']);
    expect(Number(refused.res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await new AuthBrowser(app).get('/api/sso/start?_seller=demo')).status).toBe(302);
  });

  it('keeps the client secret on the server: GET config shows the issuer and client id only', async () => {
    await useSso();
    const res = await new AuthBrowser(app).get('/api/config?_seller=demo');
    const text = JSON.stringify(res.body);
    expect(text).toContain(idp.issuer);
    expect(text).not.toContain(CLIENT_SECRET);
  });
});

describe('single sign-on settings', () => {
  it('the seller config takes an issuer and a client id, and refuses a client secret (the storefront reads the config)', () => {
    const { config } = getValidators();
    const demo = JSON.parse(readFileSync('sellers/demo/config.json', 'utf8'));
    const auth = (oidc: Record<string, unknown>) => ({ ...demo, auth: { method: 'sso', oidc } });
    expect(config(auth({ issuer: 'https://login.example.org', client_id: 'museum' }))).toBe(true);
    expect(config(auth({ issuer: 'https://login.example.org', client_id: 'museum', client_secret: 's3cret' }))).toBe(false);
    expect(config(auth({ issuer: 'login.example.org', client_id: 'museum' }))).toBe(false);
    expect(config(auth({ issuer: 'https://login.example.org' }))).toBe(false);
  });

  it('reads the client secret per seller slug, else the generic one', () => {
    const secrets = readOidcClientSecrets({ OIDC_CLIENT_SECRET: 'generic', OIDC_CLIENT_SECRET_CITY_MUSEUM: 'city', PATH: '/bin' });
    expect(oidcClientSecret({ oidcClientSecrets: secrets }, 'city-museum')).toBe('city');
    expect(oidcClientSecret({ oidcClientSecrets: secrets }, 'demo')).toBe('generic');
    expect(oidcClientSecret({ oidcClientSecrets: {} }, 'demo')).toBeUndefined();
  });

  it('sameSitePath keeps paths and same-origin URLs only', () => {
    expect(sameSitePath('/my/orders?x=1', 'http://localhost:3000')).toBe('/my/orders?x=1');
    expect(sameSitePath('//evil.example/x', 'http://localhost:3000')).toBe('/');
    expect(sameSitePath('https://evil.example/x', 'http://localhost:3000')).toBe('/');
    expect(sameSitePath('/\\evil.example', 'http://localhost:3000')).toBe('/');
    expect(sameSitePath(undefined, 'http://localhost:3000')).toBe('/');
  });
});

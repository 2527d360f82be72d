import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testClock, testDeps } from '../helpers/app';
import { AuthBrowser, DEMO_MEMBER, addUser, buildAuthApp, identityOfEmail, insertOrder, loadDemo, setAuth } from '../helpers/auth';
import { LIMITS } from '../../server/services/auth/rate-limit';

const OTHER = { email: 'other.user@example.com', password: 'Other-Pass-2026' };

describeEachDatabase('account area (my/*)', (ctx) => {
  let app: FastifyInstance;
  let sellerId: string;
  let mine: Awaited<ReturnType<typeof insertOrder>>;
  let theirs: Awaited<ReturnType<typeof insertOrder>>;
  let other: { identityId: string; userId: string };
  let memberIds: { identity_id: string; id: string };
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;
  const login = async (username: string, password: string) => {
    const b = new AuthBrowser(app);
    expect((await b.post('/api/login?_seller=demo', { username, password })).status).toBe(200);
    return b;
  };

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    app = await buildAuthApp(testDeps(ctx(), clock.now));
    other = await addUser(db(), sellerId, OTHER);
    memberIds = await identityOfEmail(db(), sellerId, DEMO_MEMBER.email);
    mine = await insertOrder(db(), sellerId, memberIds.identity_id, { now: clock.now(), daysAhead: 3 });
    theirs = await insertOrder(db(), sellerId, other.identityId, { now: clock.now(), daysAhead: 5 });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    clock.advance(LIMITS.login_account.windowSeconds);
    await setAuth(db(), sellerId, { method: 'password' });
  });

  it('every my/* call needs a session (401 not_authenticated)', async () => {
    const b = new AuthBrowser(app);
    for (const url of ['/api/my/user', '/api/my/ticket_order', '/api/my/order_session', '/api/my/membership']) {
      const r = await b.get(`${url}?_seller=demo`);
      expect(r.status).toBe(401);
      expect(r.code).toBe('not_authenticated');
    }
    expect((await b.post('/api/my/ticket_order/resend?_seller=demo', {})).status).toBe(401);
    expect((await b.put('/api/my/user?_seller=demo', { first_name: 'X' })).status).toBe(401);
  });

  it('GET my/user embeds the identity and, when asked, its meta; answers are private', async () => {
    const b = await login(DEMO_MEMBER.email, DEMO_MEMBER.password);
    const r = await b.get('/api/my/user?_seller=demo&_embed=identity,identity.meta');
    expect(r.body.user._data[0]).toMatchObject({ id: memberIds.id, identity_id: memberIds.identity_id, email: DEMO_MEMBER.email });
    expect(r.body.identity._data[0]).toMatchObject({ id: memberIds.identity_id, first_name: 'Jordan', zip_code: '10024', meta: {} });
    expect(r.res.headers['cache-control']).toBe('private, no-store');
    const plain = await b.get('/api/my/user?_seller=demo&_embed=identity');
    expect(plain.body.identity._data[0].meta).toBeUndefined();
  });

  it('PATCH my/user/{id} changes names and clears the state, never the e-mail or another user', async () => {
    const b = await login(OTHER.email, OTHER.password);
    const r = await b.patch(`/api/my/user/${other.userId}?_seller=demo`, {
      first_name: ' Sam ',
      last_name: 'Lee',
      state: 'NY',
      phone: '555 0100',
    });
    expect(r.status).toBe(200);
    expect(r.body.identity._data[0]).toMatchObject({ first_name: 'Sam', last_name: 'Lee', state: 'NY', phone: '555 0100' });
    const cleared = await b.patch(`/api/my/user/${other.identityId}?_seller=demo`, { state: null });
    expect(cleared.body.identity._data[0].state).toBeNull();
    const email = await b.patch(`/api/my/user/${other.userId}?_seller=demo`, { email: 'new@example.com' });
    expect(email.status).toBe(400);
    expect(email.body._data[0]._extra.field).toBe('email');
    expect((await b.patch(`/api/my/user/${memberIds.id}?_seller=demo`, { first_name: 'Mallory' })).status).toBe(404);
    expect((await b.patch(`/api/my/user/${other.userId}?_seller=demo`, { first_name: '' })).code).toBe('validation_failed');
    expect((await b.patch(`/api/my/user/${other.userId}?_seller=demo`, { first_name: 'x'.repeat(51) })).code).toBe('validation_failed');
    expect((await b.patch(`/api/my/user/${other.userId}?_seller=demo`, { zip_code: '1!' })).code).toBe('validation_failed');
    const member = await db().selectFrom('identity').select('first_name').where('id', '=', memberIds.identity_id).executeTakeFirstOrThrow();
    expect(member.first_name).toBe('Jordan');
    const noHeader = await new AuthBrowser(app, undefined, {}).request(
      'PATCH',
      `/api/my/user/${other.userId}`,
      { first_name: 'Eve' },
      { cookie: `storefront_session=${b.cookies.get('storefront_session')}` },
    );
    expect(noHeader.status).toBe(403);
    expect(noHeader.code).toBe('csrf_header_missing');
  });

  it('PUT my/user sets the e-mail of a user who has none; an address in use is a 409 naming its identity', async () => {
    await setAuth(db(), sellerId, { method: 'scan_code_last_name' });
    const demo = await db().selectFrom('membership').selectAll().where('scan_code', '=', DEMO_MEMBER.scanCode).executeTakeFirstOrThrow();
    const identity = await db()
      .insertInto('identity')
      .values({ seller_id: sellerId, first_name: 'Kim', last_name: 'Noaddress', additional_info: '{}', meta: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('membership')
      .values({
        seller_id: sellerId,
        identity_id: identity.id,
        role_id: demo.role_id,
        membership_program_id: demo.membership_program_id,
        scan_code: 'M29990002',
        valid_from: demo.valid_from,
        valid_to: demo.valid_to,
      })
      .execute();
    const b = new AuthBrowser(app);
    expect((await b.post('/api/login?_seller=demo', { scan_code: 'M29990002', last_name: 'Noaddress' })).status).toBe(200);
    expect((await b.get('/api/my/user?_seller=demo')).body.user._data[0].has_email).toBe(false);

    const taken = await b.put('/api/my/user?_seller=demo', { email: 'OTHER.user@example.com', email_confirm: 'other.user@example.com' });
    expect(taken.status).toBe(409);
    expect(taken.code).toBe('email_in_use');
    expect(taken.body._data[0]).not.toHaveProperty('_description');
    expect(taken.body._data[0]._extra.identity_id).toBe(other.identityId);
    // No English on the wire (issue 18): the storefront words the refusal from its code and reason.
    expect((await b.put('/api/my/user?_seller=demo', { email: 'kim@localhost' })).body._data[0]).toEqual({
      _code: 'validation_failed',
      _context: 'user',
      _extra: { field: 'email', reason: 'email_invalid' },
    });
    expect(
      (await b.put('/api/my/user?_seller=demo', { email: 'kim@example.com', email_confirm: 'kim@example.org' })).body._data[0],
    ).not.toHaveProperty('_description');

    const ok = await b.put('/api/my/user?_seller=demo', {
      email: 'kim@example.com',
      email_confirm: 'KIM@example.com',
      first_name: 'Kim',
      last_name: 'Noaddress',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user._data[0]).toMatchObject({ email: 'kim@example.com', has_email: true });
    expect(ok.body.identity._data[0].email).toBe('kim@example.com');
    // A first password may be set here (rules apply); changing one needs the reset flow.
    expect((await b.put('/api/my/user?_seller=demo', { password: 'short' })).body._data[0]).not.toHaveProperty('_description');
    expect((await b.put('/api/my/user?_seller=demo', { password: 'Kims-Password-1' })).status).toBe(200);
    expect((await b.put('/api/my/user?_seller=demo', { password: 'Kims-Password-2' })).code).toBe('validation_failed');
    // Once it has an address, the account keeps it (a stolen session cannot move it elsewhere).
    expect((await b.put('/api/my/user?_seller=demo', { email: 'thief@example.com' })).body._data[0]._extra).toEqual({
      field: 'email',
      reason: 'email_fixed',
    });
    expect((await b.put('/api/my/user?_seller=demo', { email: 'KIM@example.com', first_name: 'Kimberly' })).status).toBe(200);
    await setAuth(db(), sellerId, { method: 'password' });
    expect(
      (await new AuthBrowser(app).post('/api/login?_seller=demo', { username: 'kim@example.com', password: 'Kims-Password-1' })).status,
    ).toBe(200);
  });

  it("GET my/ticket_order lists only the user's own orders, with tickets, types and groups", async () => {
    const b = await login(DEMO_MEMBER.email, DEMO_MEMBER.password);
    const r = await b.get('/api/my/ticket_order?_seller=demo&_embed=ticket,ticket_type,ticket_group');
    expect(r.status).toBe(200);
    expect(r.body.ticket_order._data.map((o: any) => o.id)).toEqual([mine.orderId]);
    expect(r.body.ticket_order._count).toBe(1);
    expect(r.body.ticket._data.map((t: any) => t.id)).toEqual([mine.ticketId]);
    expect(r.body.ticket._data[0].scan_code).toBeTruthy();
    expect(r.body.ticket_type._count).toBe(1);
    expect(r.body.ticket_group._count).toBe(1);
    const asked = await b.get(`/api/my/ticket_order?_seller=demo&id._in=${theirs.orderId}&_embed=ticket`);
    expect(asked.body.ticket_order._count).toBe(0);
    expect(asked.body.ticket._count).toBe(0);
    const them = await login(OTHER.email, OTHER.password);
    expect((await them.get('/api/my/ticket_order?_seller=demo')).body.ticket_order._data.map((o: any) => o.id)).toEqual([theirs.orderId]);
    // The plain order read (ticket-order route) does not open another user's order either.
    expect((await them.get(`/api/ticket_order/${mine.orderId}`)).status).toBe(404);
  });

  it("GET my/order_session lists the sessions of the user's booked or redeemed tickets", async () => {
    const b = await login(DEMO_MEMBER.email, DEMO_MEMBER.password);
    const r = await b.get('/api/my/order_session?_seller=demo&_embed=ticket&ticket.state._in=booked,redeemed');
    expect(r.status).toBe(200);
    expect(r.body.order_session._data.map((s: any) => s.id)).toEqual([mine.sessionId]);
    expect(r.body.order_session._data[0]).toMatchObject({ ticket_count: 1, ticket_order_ids: [mine.orderId] });
    expect(r.body.ticket._data.map((t: any) => t.id)).toEqual([mine.ticketId]);
    expect((await b.get('/api/my/order_session?_seller=demo&ticket.state._in=cancelled')).body.order_session._count).toBe(0);
    const later = new Date(clock.now().getTime() + 30 * 86_400_000).toISOString();
    expect((await b.get(`/api/my/order_session?_seller=demo&start_datetime._gte=${later}`)).body.order_session._count).toBe(0);
    expect((await b.get(`/api/my/order_session?_seller=demo&id=${theirs.sessionId}`)).body.order_session._count).toBe(0);
    const them = await login(OTHER.email, OTHER.password);
    expect((await them.get('/api/my/order_session?_seller=demo')).body.order_session._data.map((s: any) => s.id)).toEqual([
      theirs.sessionId,
    ]);
  });

  it("GET my/membership shows the member's membership with role and program; others have none", async () => {
    const b = await login(DEMO_MEMBER.email, DEMO_MEMBER.password);
    const r = await b.get('/api/my/membership?_seller=demo&_embed=role,role.membership_program');
    expect(r.status).toBe(200);
    const m = r.body.membership._data;
    expect(m).toHaveLength(1);
    expect(m[0]).toMatchObject({ scan_code: DEMO_MEMBER.scanCode, auto_renew_state: 'scheduled' });
    expect(Date.parse(m[0].valid_to)).toBeGreaterThan(clock.now().getTime());
    expect(r.body.role._data[0].id).toBe(m[0].role_id);
    expect(r.body.membership_program._data[0].id).toBe(m[0].membership_program_id);
    const them = await login(OTHER.email, OTHER.password);
    expect((await them.get('/api/my/membership?_seller=demo')).body.membership._count).toBe(0);
  });
});

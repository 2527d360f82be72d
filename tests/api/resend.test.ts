import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { testClock, testDeps } from '../helpers/app';
import {
  AuthBrowser,
  DEMO_MEMBER,
  addUser,
  buildAuthApp,
  identityOfEmail,
  insertOrder,
  lastMail,
  loadDemo,
  mailCount,
} from '../helpers/auth';
import { LIMITS } from '../../server/services/auth/rate-limit';

const RESEND = '/api/ticket_order/resend?_seller=demo';

describeEachDatabase('resending tickets', (ctx) => {
  let app: FastifyInstance;
  let sellerId: string;
  let memberOrder: Awaited<ReturnType<typeof insertOrder>>;
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    app = await buildAuthApp(testDeps(ctx(), clock.now));
    const member = await identityOfEmail(db(), sellerId, DEMO_MEMBER.email);
    memberOrder = await insertOrder(db(), sellerId, member.identity_id, { now: clock.now() });
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => clock.advance(LIMITS.resend_email.windowSeconds));

  it("mails the orders again to the address on them, including a guest purchaser's", async () => {
    const before = await mailCount(db(), DEMO_MEMBER.email, 'order_tickets');
    const r = await new AuthBrowser(app).post(RESEND, { email: ' Member@Example.com ' });
    expect(r.status).toBe(200);
    expect(r.body.ticket_order._count).toBe(1);
    expect(await mailCount(db(), DEMO_MEMBER.email, 'order_tickets')).toBe(before + 1);
    const mail = await lastMail(db(), DEMO_MEMBER.email, 'order_tickets');
    const scan = await db().selectFrom('ticket').select('scan_code').where('id', '=', memberOrder.ticketId).executeTakeFirstOrThrow();
    expect(mail!.text_body).toContain(scan.scan_code!);

    const guest = await db()
      .insertInto('identity')
      .values({
        seller_id: sellerId,
        first_name: 'Gwen',
        last_name: 'Guest',
        email: 'gwen@example.com',
        additional_info: '{}',
        meta: JSON.stringify({ guest: true }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertOrder(db(), sellerId, guest.id, { now: clock.now() });
    expect((await new AuthBrowser(app).post(RESEND, { email: 'gwen@example.com' })).status).toBe(200);
    expect(await mailCount(db(), 'gwen@example.com', 'order_tickets')).toBe(1);
  });

  it("404 with the spec's text when the address has no orders; memberships_only mails member IDs and membership orders", async () => {
    const none = await new AuthBrowser(app).post(RESEND, { email: 'no-orders@example.com' });
    expect(none.status).toBe(404);
    expect(none.code).toBe('not_found');
    expect(none.body._data[0]).not.toHaveProperty('_description');
    expect(await mailCount(db(), 'no-orders@example.com')).toBe(0);
    // Forgot-membership (issue 12): a catalogue member has no order, yet hears their member ID.
    const onlyMembership = await new AuthBrowser(app).post(RESEND, { email: DEMO_MEMBER.email, memberships_only: true });
    expect(onlyMembership.status).toBe(200);
    expect(await mailCount(db(), DEMO_MEMBER.email, 'member_id')).toBe(1);
    const idMail = await db().selectFrom('mail_outbox').select('text_body').where('kind', '=', 'member_id').executeTakeFirstOrThrow();
    expect(idMail.text_body).toContain(DEMO_MEMBER.scanCode);
    const ordersOnly = await new AuthBrowser(app).post(RESEND, { email: 'order-less@example.com', memberships_only: true });
    expect(ordersOnly.status).toBe(404);
    const m = await addUser(db(), sellerId, { email: 'has-membership@example.com' });
    await insertOrder(db(), sellerId, m.identityId, { now: clock.now(), handler: 'membership' });
    expect((await new AuthBrowser(app).post(RESEND, { email: 'has-membership@example.com', memberships_only: true })).status).toBe(200);
    expect((await new AuthBrowser(app).post(RESEND, { email: 'bad-address' })).code).toBe('validate_not_email');
  });

  it("POST my/ticket_order/resend mails the logged-in user's own orders only", async () => {
    const other = await addUser(db(), sellerId, { email: 'resend-other@example.com', password: 'Other-Pass-2026' });
    await insertOrder(db(), sellerId, other.identityId, { now: clock.now() });
    const anonymous = await new AuthBrowser(app).post('/api/my/ticket_order/resend?_seller=demo', {});
    expect(anonymous.status).toBe(401);
    const b = new AuthBrowser(app);
    expect((await b.post('/api/login?_seller=demo', { username: DEMO_MEMBER.email, password: DEMO_MEMBER.password })).status).toBe(200);
    const before = await mailCount(db(), 'resend-other@example.com');
    const memberBefore = await mailCount(db(), DEMO_MEMBER.email, 'order_tickets');
    const r = await b.post('/api/my/ticket_order/resend?_seller=demo', {});
    expect(r.status).toBe(200);
    expect(await mailCount(db(), DEMO_MEMBER.email, 'order_tickets')).toBe(memberBefore + 1);
    expect(await mailCount(db(), 'resend-other@example.com')).toBe(before);
    expect((await b.post('/api/my/ticket_order/resend?_seller=demo', { memberships_only: true })).body._data[0]).not.toHaveProperty(
      '_description',
    );
  });

  it(`limits resends per e-mail (${LIMITS.resend_email.max}) and per address (${LIMITS.resend_ip.max})`, async () => {
    for (let i = 0; i < LIMITS.resend_email.max; i++)
      expect((await new AuthBrowser(app).post(RESEND, { email: DEMO_MEMBER.email })).status).toBe(200);
    const limited = await new AuthBrowser(app).post(RESEND, { email: DEMO_MEMBER.email });
    expect(limited.status).toBe(429);
    expect(limited.code).toBe('rate_limited');
    const b = new AuthBrowser(app);
    for (let i = 0; i < LIMITS.resend_ip.max; i++) expect((await b.post(RESEND, { email: `x${i}@example.com` })).status).toBe(404);
    expect((await b.post(RESEND, { email: 'x-last@example.com' })).status).toBe(429);
  });
});

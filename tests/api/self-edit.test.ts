import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, ECOMM, buildTestApp, testClock, testDeps } from '../helpers/app';
import { AuthBrowser, addUser, loadDemo } from '../helpers/auth';
import { setUnsafeSkipCancelGuardForTests } from '../../server/services/self-edit';
import { signOrder } from '../../server/services/manage-link';
import { MANAGE_SIGNATURE_HEADER } from '../../src/contract/manage-link';
import type { Deps } from '../../server/deps';

const SELLER = '_seller=demo';

describeEachDatabase('order self-service (issue 17)', (ctx) => {
  let app: FastifyInstance;
  let deps: Deps;
  let sellerId: string;
  let talk: { typeId: string; sessions: Array<{ id: string; start: Date }> };
  const clock = testClock(new Date('2026-05-04T13:00:00Z'));
  const db = () => ctx().db;

  beforeAll(async () => {
    sellerId = await loadDemo(db(), clock.now());
    deps = testDeps(ctx(), clock.now);
    app = await buildTestApp(deps);
    const type = await db()
      .selectFrom('ticket_type')
      .innerJoin('ticket_group', 'ticket_group.id', 'ticket_type.ticket_group_id')
      .innerJoin('event_template', 'event_template.id', 'ticket_group.event_template_id')
      .select(['ticket_type.id', 'event_template.id as event_id'])
      .where('event_template.name', '=', 'Free Gallery Talk: Objects in Focus')
      .executeTakeFirstOrThrow();
    const sessions = await db()
      .selectFrom('event_session')
      .select(['id', 'start_datetime'])
      .where('event_template_id', '=', type.event_id)
      .orderBy('start_datetime')
      .limit(12)
      .execute();
    talk = { typeId: type.id, sessions: sessions.map((s) => ({ id: s.id, start: new Date(s.start_datetime) })) };
  });
  afterAll(async () => {
    await app?.close();
  });
  afterEach(() => setUnsafeSkipCancelGuardForTests(false));

  /** A guest books `count` free places of a session (through the API, as the storefront does); the order's id. */
  async function bookFree(sessionId: string, count = 2, email = 'gwen@example.com') {
    const b = new Browser(app);
    const add = Array.from({ length: count }, () => ({ ticket_type_id: talk.typeId, event_session_id: sessionId }));
    const cart = await b.post(`/api/cart/modify?${SELLER}`, { add });
    expect(cart.status).toBe(200);
    const user = await b.post(`/api/user?${SELLER}`, { first_name: 'Gwen', last_name: 'Guest', email, email_confirm: email });
    const cartId = cart.body.cart._data[0].id;
    const paid = await b.post(`/api/cart/${cartId}/guest_checkout`, {
      amount: '0.00',
      gateway_id: 'free',
      guest_identity_id: user.body.identity._data[0].id,
      send_email: true,
    });
    expect(paid.status).toBe(200);
    const order = paid.body.ticket_order._data[0];
    return { b, orderId: order.id as string, ticketIds: paid.body.ticket._data.map((t: { id: string }) => t.id) as string[] };
  }
  const signed = async (orderId: string) => {
    const s = await db().selectFrom('seller').select('manage_link_secret').where('id', '=', sellerId).executeTakeFirstOrThrow();
    return { [MANAGE_SIGNATURE_HEADER]: signOrder(s.manage_link_secret, orderId) };
  };
  const used = async (sessionId: string) =>
    (await db().selectFrom('event_session').select('used_capacity').where('id', '=', sessionId).executeTakeFirstOrThrow()).used_capacity;
  /** A future session well beyond the demo's 24-hour horizon. */
  const later = (i: number) => talk.sessions.filter((s) => s.start.getTime() > clock.now().getTime() + 48 * 3_600_000)[i].id;

  it('answers the order and its cancelable tickets to the buying browser and to the signed link; anyone else gets 404', async () => {
    const { b, orderId, ticketIds } = await bookFree(later(0));
    const mine = await b.get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`);
    expect(mine.status).toBe(200);
    expect(mine.body.self_edit._data[0]).toEqual({
      ticket_order_id: orderId,
      mode: 'edit_order',
      cancelable: true,
      reason: null,
      cancelable_ticket_ids: expect.arrayContaining(ticketIds),
      horizon_hours: 24,
      refund_amount: '0.00',
      reschedulable_ticket_ids: expect.arrayContaining(ticketIds),
      edit: null,
    });
    expect(mine.body.ticket._count).toBe(2);

    const byLink = await new Browser(app).get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`, await signed(orderId));
    expect(byLink.status).toBe(200);
    const stranger = new Browser(app);
    expect((await stranger.get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`)).status).toBe(404);
    // A signature of another order, or a forged one, proves nothing.
    const other = await bookFree(later(0), 1);
    expect((await stranger.get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`, await signed(other.orderId))).status).toBe(404);
    expect(
      (await stranger.get(`/api/ticket_order/${orderId}/self_edit?${SELLER}`, { [MANAGE_SIGNATURE_HEADER]: 'A'.repeat(43) })).status,
    ).toBe(404);
    const theirCancel = await stranger.request('POST', `/api/ticket_order/${orderId}/cancel?${SELLER}`, { tickets: ticketIds });
    expect(theirCancel.status).toBe(404);
    expect(await db().selectFrom('ticket').select('state').where('id', 'in', ticketIds).execute()).toEqual([
      { state: 'booked' },
      { state: 'booked' },
    ]);
  });

  it('cancels free tickets of a future session through the signed link, gives the places back and mails the cancellation', async () => {
    const session = later(1);
    const { orderId, ticketIds } = await bookFree(session);
    const before = await used(session);
    const visitor = new Browser(app);
    const res = await visitor.request(
      'POST',
      `/api/ticket_order/${orderId}/cancel?${SELLER}`,
      { tickets: ticketIds },
      await signed(orderId),
    );
    expect(res.status).toBe(200);
    expect(res.body.ticket._data.map((t: { state: string }) => t.state)).toEqual(['cancelled', 'cancelled']);
    expect(res.body.self_edit._data[0]).toMatchObject({ cancelable: false, reason: 'ticket_state_incorrect', cancelable_ticket_ids: [] });
    expect(await used(session)).toBe(before - 2);
    const mail = await db()
      .selectFrom('mail_outbox')
      .select(['kind', 'subject'])
      .where('kind', '=', 'order_cancel')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toMatch(/is cancelled$/);
    // Once: a second cancel is refused and gives nothing back.
    const again = await visitor.request(
      'POST',
      `/api/ticket_order/${orderId}/cancel?${SELLER}`,
      { tickets: ticketIds },
      await signed(orderId),
    );
    expect([again.status, again.body._data[0]._code]).toEqual([409, 'ticket_state_incorrect']);
    expect(await used(session)).toBe(before - 2);
  });

  it('refuses paid orders, sessions inside the horizon, unknown tickets and a logged-in visitor, with the contract codes', async () => {
    // Inside the 24-hour horizon: tickets_too_old.
    const soon = talk.sessions.find(
      (s) => s.start.getTime() > clock.now().getTime() && s.start.getTime() < clock.now().getTime() + 24 * 3_600_000,
    )!;
    const near = await bookFree(soon.id, 1);
    const view = await near.b.get(`/api/ticket_order/${near.orderId}/self_edit?${SELLER}`);
    expect(view.body.self_edit._data[0]).toMatchObject({ cancelable: false, reason: 'tickets_too_old' });
    const tooOld = await near.b.post(`/api/ticket_order/${near.orderId}/cancel?${SELLER}`, { tickets: near.ticketIds });
    expect([tooOld.status, tooOld.body._data[0]._code]).toEqual([409, 'tickets_too_old']);

    // A ticket not of this order.
    const other = await bookFree(later(2), 1);
    const foreign = await near.b.post(`/api/ticket_order/${near.orderId}/cancel?${SELLER}`, { tickets: other.ticketIds });
    expect([foreign.status, foreign.body._data[0]._code]).toEqual([404, 'ticket_not_found']);

    // A paid order: order_not_self_editable ('You must contact us to cancel this order.').
    await db().updateTable('ticket').set({ face_value: 1500, adjusted_value: 1500 }).where('id', 'in', other.ticketIds).execute();
    const paid = await other.b.post(`/api/ticket_order/${other.orderId}/cancel?${SELLER}`, { tickets: other.ticketIds });
    expect([paid.status, paid.body._data[0]._code, paid.body._data[0]._extra.reason]).toEqual([403, 'order_not_self_editable', 'not_free']);

    // Logged in: refused, even for the owner ('Please log-out to edit your tickets').
    const member = await addUser(db(), sellerId, { email: 'logged-in@example.com', password: 'Correct-Horse-9' });
    const user = new AuthBrowser(app);
    const login = await user.post(`/api/login?${SELLER}`, { username: 'logged-in@example.com', password: 'Correct-Horse-9' });
    expect(login.status).toBe(200);
    const mineWhileIn = await user.request(
      'GET',
      `/api/ticket_order/${near.orderId}/self_edit?${SELLER}`,
      undefined,
      await signed(near.orderId),
    );
    expect([mineWhileIn.status, mineWhileIn.body._data[0]._code, mineWhileIn.body._data[0]._extra.reason]).toEqual([
      403,
      'order_not_self_editable',
      'logged_in',
    ]);
    expect(member).toBeTruthy();
  });

  it('POST ticket_order/{id}/email mails the order again, as an update or a cancellation when asked', async () => {
    const { b, orderId } = await bookFree(later(3), 1, 'again@example.com');
    const count = async (kind: string) =>
      (await db().selectFrom('mail_outbox').select('id').where('to_address', '=', 'again@example.com').where('kind', '=', kind).execute())
        .length;
    expect(await count('order_tickets')).toBe(1);
    expect((await b.post(`/api/ticket_order/${orderId}/email?${SELLER}`, {})).status).toBe(200);
    expect((await b.post(`/api/ticket_order/${orderId}/email?${SELLER}`, { log_context: 'order_update' })).status).toBe(200);
    expect(await count('order_tickets')).toBe(2);
    expect(await count('order_update')).toBe(1);
    expect((await new Browser(app).post(`/api/ticket_order/${orderId}/email?${SELLER}`, {})).status).toBe(404);
    expect((await b.post(`/api/ticket_order/${orderId}/email?${SELLER}`, { log_context: 'spam' })).status).toBe(400);
  });

  for (const guard of [true, false]) {
    it(`20 cancels of one order at once give its place back ${guard ? 'once' : '20 times with the guard off (control)'}`, async () => {
      const session = later(4);
      const { orderId, ticketIds } = await bookFree(session, 1);
      // Room below so the control's over-release stays within the counter's own check (used >= 0).
      await db().updateTable('event_session').set({ used_capacity: 25 }).where('id', '=', session).execute();
      await db().updateTable('session_ticket_group').set({ used_capacity: 25 }).where('event_session_id', '=', session).execute();
      setUnsafeSkipCancelGuardForTests(!guard);
      const headers = { ...ECOMM, 'content-type': 'application/json', ...(await signed(orderId)) };
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          app.inject({ method: 'POST', url: `/api/ticket_order/${orderId}/cancel?${SELLER}`, headers, payload: { tickets: ticketIds } }),
        ),
      );
      const ok = answers.filter((a) => a.statusCode === 200).length;
      if (guard) {
        expect(ok).toBe(1);
        expect(answers.filter((a) => a.statusCode === 409).every((a) => a.json()._data[0]._code === 'ticket_state_incorrect')).toBe(true);
        expect(await used(session)).toBe(24);
      } else {
        expect(ok).toBe(20);
        expect(await used(session)).toBe(5);
      }
    });
  }
});

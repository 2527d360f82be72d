import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { concert, type Concert } from '../helpers/seating';
import { loadSellerFolder } from '../../server/catalog/loader';
import { sweepExpiredCarts } from '../../server/jobs/cart-sweeper';
import type { Deps } from '../../server/deps';

/** Reserved seating on the demo's Starlight Theatre (issue 15): the seat map read, seat choice on reserve, holds. */
const NOW = new Date('2026-05-04T13:00:00Z');
const HOLD_SECONDS = 900;
const CARD = { card: { number: '4242424242424242', exp_month: 12, exp_year: 2031, cvc: '123' } };

describeEachDatabase(
  'reserved seating',
  (ctx) => {
    let app: FastifyInstance;
    let deps: Deps;
    let c: Concert;
    const clock = testClock(NOW);
    const code = (r: { body: any }) => r.body?._data?.[0]?._code;
    const extra = (r: { body: any }) => r.body?._data?.[0]?._extra;

    beforeAll(async () => {
      deps = testDeps(ctx(), clock.now);
      app = await buildTestApp(deps);
      c = await concert(app);
    });

    const seatMap = async (sessionId = c.sessionId, query = '') =>
      (await app.inject({ url: `/api/events/${c.eventId}/sessions/${sessionId}/seat_map?_seller=demo${query}` })).json();
    const stateOf = async (name: string, sessionId = c.sessionId) =>
      (await seatMap(sessionId)).seat._data.find((s: { name: string }) => s.name === name).state as string;
    const orchestra = (seatName: string, type: 'adult' | 'student' = 'adult', sessionId = c.sessionId) => ({
      ticket_type_id: c.types.orchestra[type],
      event_session_id: sessionId,
      seat_id: c.seat(seatName),
    });
    const reserve = (b: Browser, add: unknown[], cartId?: string) =>
      b.post(cartId ? `/api/cart/${cartId}/modify?_seller=demo` : '/api/cart/modify?_seller=demo', { add });

    describe('GET seat_map', () => {
      it('lists every seat with its place, neighbours, groups and state; geometry only when asked', async () => {
        const map = await seatMap(c.sessionId, '&_withgeometry=true');
        expect(map.seat_map._data).toEqual([
          expect.objectContaining({ name: 'Starlight Theatre', width: 800, height: 640, other_elements: expect.stringContaining('STAGE') }),
        ]);
        expect(map.seat_map._data[0].map_geometry.sections.map((s: { name: string }) => s.name)).toEqual([
          'Orchestra',
          'Mezzanine',
          'Balcony',
        ]);
        expect(map.seat._count).toBe(8 * 13 + 4 * 12 + 4 * 12);
        const byName = new Map(map.seat._data.map((s: { name: string }) => [s.name, s]));
        expect(byName.get('ORCH-C7')).toEqual({
          seat_template_id: c.seat('ORCH-C7'),
          name: 'ORCH-C7',
          section: 'Orchestra',
          row: 'C',
          number: '7',
          x: 232 + 6 * 28,
          y: 120 + 2 * 28,
          r: 10,
          state: 'available',
          previous: c.seat('ORCH-C6'),
          next: c.seat('ORCH-C8'),
          ticket_groups: [c.groups.orchestra],
        });
        expect(byName.get('ORCH-A1')).toMatchObject({ previous: null, next: c.seat('ORCH-A2') });
        expect(byName.get('BALC-N1')).toMatchObject({ ticket_groups: [c.groups.balcony] });
        // The catalogue blocks ORCH-H7: never sold.
        expect(byName.get('ORCH-H7')).toMatchObject({ state: 'unavailable' });

        const plain = await seatMap();
        expect(plain.seat_map._data[0].other_elements).toBeUndefined();
        expect(plain.seat_map._data[0].map_geometry).toBeUndefined();
      });

      it('answers 404 for an event without a seat map and for a session of another event', async () => {
        const events = (await app.inject({ url: '/api/events/available?_seller=demo&category=admission' })).json();
        const admission = events.event_template._data[0].id;
        const sessions = (await app.inject({ url: `/api/events/${admission}/sessions?_seller=demo&_limit=1` })).json();
        const other = sessions.event_session._data[0].id;
        const noMap = await app.inject({ url: `/api/events/${admission}/sessions/${other}/seat_map?_seller=demo` });
        expect(noMap.statusCode).toBe(404);
        expect(noMap.json()._data[0]._extra).toMatchObject({ resource: 'seat_map' });
        const wrongSession = await app.inject({ url: `/api/events/${c.eventId}/sessions/${other}/seat_map?_seller=demo` });
        expect(wrongSession.statusCode).toBe(404);
        expect(wrongSession.json()._data[0]._extra).toMatchObject({ resource: 'event_session' });
      });
    });

    describe('choosing seats on reserve', () => {
      it("refuses a seated ticket without a seat: 'seat choice required for seated groups'", async () => {
        const r = await reserve(new Browser(app), [{ ticket_type_id: c.types.orchestra.adult, event_session_id: c.sessionId }]);
        expect(r.status).toBe(400);
        expect(code(r)).toBe('seat_required');
        expect(extra(r)).toMatchObject({ field: 'add.0.seat_id', ticket_group_id: c.groups.orchestra });
      });

      it('refuses a seat of another section, a blocked seat, a seat chosen twice and a seat on an unseated ticket', async () => {
        const b = new Browser(app);
        const mezzSeat = await reserve(b, [{ ...orchestra('ORCH-A1'), seat_id: c.seat('MEZZ-J1') }]);
        expect([mezzSeat.status, code(mezzSeat), extra(mezzSeat).reason]).toEqual([409, 'seat_unavailable', 'other_group']);
        const blocked = await reserve(b, [orchestra('ORCH-H7')]);
        expect([blocked.status, code(blocked), extra(blocked).reason]).toEqual([409, 'seat_unavailable', 'unavailable']);
        const twice = await reserve(b, [orchestra('ORCH-A1'), orchestra('ORCH-A1', 'student')]);
        expect([twice.status, code(twice), extra(twice).reason]).toEqual([409, 'seat_unavailable', 'chosen_twice']);
        const events = (
          await app.inject({ url: '/api/events/available?_seller=demo&category=admission&_embed=ticket_group,ticket_type' })
        ).json();
        const timed = events.ticket_group._data.find((g: { handler: string; flexible: boolean }) => g.handler === 'tickets' && !g.flexible);
        const admissionType = events.ticket_type._data.find((t: { ticket_group_id: string }) => t.ticket_group_id === timed.id);
        const sessions = (await app.inject({ url: `/api/events/${timed.event_template_id}/sessions?_seller=demo&_limit=2` })).json();
        const unseated = await reserve(b, [
          { ticket_type_id: admissionType.id, event_session_id: sessions.event_session._data[1].id, seat_id: c.seat('ORCH-A1') },
        ]);
        expect([unseated.status, code(unseated), extra(unseated).field]).toEqual([400, 'validation_failed', 'add.0.seat_id']);
        expect(await stateOf('ORCH-A1')).toBe('available');
      });

      it('holds the seat for one cart: the ticket names it, the next reader sees it booked, a second cart is told which seat it lost', async () => {
        const first = new Browser(app);
        const held = await reserve(first, [orchestra('ORCH-B5'), orchestra('ORCH-B6', 'student')]);
        expect(held.status).toBe(200);
        const tickets = held.body.ticket._data;
        const bySeat = (a: { seat: { name: string } }, b: { seat: { name: string } }) => a.seat.name.localeCompare(b.seat.name);
        expect(tickets.sort(bySeat).map((t: { seat: unknown }) => t.seat)).toEqual([
          { id: c.seat('ORCH-B5'), name: 'ORCH-B5', section: 'Orchestra', row: 'B', number: '5' },
          { id: c.seat('ORCH-B6'), name: 'ORCH-B6', section: 'Orchestra', row: 'B', number: '6' },
        ]);
        expect(await stateOf('ORCH-B5')).toBe('booked');
        expect(await stateOf('ORCH-B6')).toBe('booked');
        expect(await stateOf('ORCH-B6', c.otherSessionId)).toBe('available');

        // The second shopper already holds balcony seats; losing B6 keeps them.
        const second = new Browser(app);
        const balcony = await reserve(second, [
          { ticket_type_id: c.types.balcony.adult, event_session_id: c.sessionId, seat_id: c.seat('BALC-N3') },
        ]);
        const cartId = balcony.body.cart._data[0].id;
        const lost = await reserve(second, [orchestra('ORCH-B6'), orchestra('ORCH-B7')], cartId);
        expect(lost.status).toBe(409);
        expect(code(lost)).toBe('seat_unavailable');
        expect(extra(lost)).toEqual({ seat_ids: [c.seat('ORCH-B6')], reason: 'taken' });
        expect(await stateOf('ORCH-B7')).toBe('available');
        const after = await second.get(`/api/cart/${cartId}?_seller=demo`);
        expect(after.body.ticket._data.map((t: { seat: { name: string } }) => t.seat.name)).toEqual(['BALC-N3']);
        // In another session the same seat is free.
        expect((await reserve(second, [orchestra('ORCH-B6', 'adult', c.otherSessionId)], cartId)).status).toBe(200);
      });

      it('the group and session capacities still apply to seated tickets', async () => {
        // The group's capacity at this session (its usage row, as the first sale makes it).
        const usage = { event_session_id: c.otherSessionId, ticket_group_id: c.groups.mezzanine };
        await ctx()
          .db.insertInto('session_ticket_group')
          .values({ ...usage, capacity: 1 })
          .onConflict((oc) => oc.columns(['event_session_id', 'ticket_group_id']).doUpdateSet({ capacity: 1 }))
          .execute();
        try {
          const mezz = (seat: string) => ({
            ticket_type_id: c.types.mezzanine.adult,
            event_session_id: c.otherSessionId,
            seat_id: c.seat(seat),
          });
          const r = await reserve(new Browser(app), [mezz('MEZZ-K1'), mezz('MEZZ-K2')]);
          expect(r.status).toBe(409);
          expect(code(r)).toBe('ticket_group_capacity_exceeded');
          expect(await stateOf('MEZZ-K1', c.otherSessionId)).toBe('available');
        } finally {
          await ctx()
            .db.updateTable('session_ticket_group')
            .set({ capacity: 48 })
            .where('event_session_id', '=', usage.event_session_id)
            .where('ticket_group_id', '=', usage.ticket_group_id)
            .execute();
        }
      });
    });

    describe('holds release', () => {
      it('on removal and on cart deletion', async () => {
        const b = new Browser(app);
        const r = await reserve(b, [orchestra('ORCH-D1'), orchestra('ORCH-D2')]);
        const cartId = r.body.cart._data[0].id;
        const d1 = r.body.ticket._data.find((t: { seat_id: string }) => t.seat_id === c.seat('ORCH-D1')).id;
        expect((await b.post(`/api/cart/${cartId}/remove?_seller=demo`, { tickets: [d1] })).status).toBe(200);
        expect(await stateOf('ORCH-D1')).toBe('available');
        expect(await stateOf('ORCH-D2')).toBe('booked');
        expect((await b.delete(`/api/cart/${cartId}?_seller=demo`)).status).toBe(200);
        expect(await stateOf('ORCH-D2')).toBe('available');
        expect((await reserve(new Browser(app), [orchestra('ORCH-D1'), orchestra('ORCH-D2')])).status).toBe(200);
      });

      it('on expiry: the next reader sees the seat free and the next reserve takes it, before and after the sweeper', async () => {
        const abandoned = await reserve(new Browser(app), [orchestra('ORCH-E1'), orchestra('ORCH-E2')]);
        expect(abandoned.status).toBe(200);
        clock.advance(HOLD_SECONDS + 1);
        // Nobody swept yet: the read already treats the hold as released, and a reserve releases it.
        expect(await stateOf('ORCH-E1')).toBe('available');
        const next = await reserve(new Browser(app), [orchestra('ORCH-E1')]);
        expect(next.status).toBe(200);
        expect(await stateOf('ORCH-E1')).toBe('booked');
        const old = await ctx()
          .db.selectFrom('cart')
          .select('state')
          .where('id', '=', abandoned.body.cart._data[0].id)
          .executeTakeFirstOrThrow();
        expect(old.state).toBe('expired');
        // The sweeper path frees the seat for good too.
        const other = await reserve(new Browser(app), [orchestra('ORCH-E5')]);
        clock.advance(HOLD_SECONDS + 1);
        await sweepExpiredCarts(deps);
        expect(await stateOf('ORCH-E5')).toBe('available');
        expect(other.status).toBe(200);
      });
    });

    describe('checkout', () => {
      async function guest(seats: string[]) {
        const b = new Browser(app);
        const cart = await reserve(
          b,
          seats.map((s) => orchestra(s)),
        );
        expect(cart.status).toBe(200);
        const user = await b.post('/api/user?_seller=demo', { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' });
        const cartId = cart.body.cart._data[0].id as string;
        // The amount the shopper saw (a released hold shows nothing outstanding any more).
        const amount = cart.body.cart._data[0].cart_fees.grand_totals.total_outstanding;
        const pay = async () =>
          b.post(`/api/cart/${cartId}/guest_checkout?_seller=demo`, {
            amount,
            gateway_id: 'test',
            gateway_data: CARD,
            guest_identity_id: user.body.identity._data[0].id,
            send_email: true,
          });
        return { b, cartId, pay };
      }

      it('books the seats: sold to everyone after, named on the order, its tickets and its e-mail', async () => {
        const g = await guest(['ORCH-C7', 'ORCH-C8']);
        const paid = await g.pay();
        expect(paid.status).toBe(200);
        const orderId = paid.body.ticket_order._data[0].id;
        expect(await stateOf('ORCH-C7')).toBe('booked');
        const order = await g.b.get(`/api/ticket_order/${orderId}?_seller=demo`, {
          'x-order-access-token': paid.body.ticket_order._data[0].access_token,
        });
        expect(order.status).toBe(200);
        const sold = order.body.ticket._data.map((t: { state: string; seat: { name: string } }) => [t.state, t.seat.name]);
        expect(sold.sort()).toEqual([
          ['booked', 'ORCH-C7'],
          ['booked', 'ORCH-C8'],
        ]);
        const mail = await ctx()
          .db.selectFrom('mail_outbox')
          .select(['text_body', 'html_body'])
          .where('kind', '=', 'order_tickets')
          .orderBy('created_at', 'desc')
          .executeTakeFirstOrThrow();
        expect(mail.text_body).toContain('Adult, Orchestra row C seat 7');
        expect(mail.text_body).toContain('Adult, Orchestra row C seat 8');
        expect(mail.html_body).toContain('Orchestra row C seat 7');
        // A third shopper cannot have it.
        const third = await reserve(new Browser(app), [orchestra('ORCH-C7')]);
        expect([third.status, code(third)]).toEqual([409, 'seat_unavailable']);
      });

      it('a late payment for a released hold whose seat was sold meanwhile is refused before any charge', async () => {
        const late = await guest(['ORCH-F3']);
        clock.advance(HOLD_SECONDS + 1);
        await sweepExpiredCarts(deps);
        expect((await reserve(new Browser(app), [orchestra('ORCH-F3')])).status).toBe(200);
        const refused = await late.pay();
        expect(refused.status).toBe(409);
        expect(code(refused)).toBe('seat_unavailable');
        expect(refused.body._data[0]._context).toBe('checkout');
        expect(extra(refused).seat_ids).toEqual([c.seat('ORCH-F3')]);
        const payments = await ctx().db.selectFrom('payment').select('status').where('cart_id', '=', late.cartId).execute();
        expect(payments).toEqual([]);
        const cart = await ctx().db.selectFrom('cart').select('state').where('id', '=', late.cartId).executeTakeFirstOrThrow();
        expect(cart.state).toBe('expired');
      });

      it('a late payment for a released hold whose seat is still free books it', async () => {
        const late = await guest(['ORCH-F9']);
        clock.advance(HOLD_SECONDS + 1);
        await sweepExpiredCarts(deps);
        expect(await stateOf('ORCH-F9')).toBe('available');
        expect((await late.pay()).status).toBe(200);
        expect(await stateOf('ORCH-F9')).toBe('booked');
      });
    });
  },
  async (h) => {
    await loadSellerFolder(h.db, path.resolve('sellers/demo'), { now: NOW });
  },
);

import path from 'node:path';
import { expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { loadSellerFolder } from '../../server/catalog/loader';

/** Support staff and preview (issue 18) on the demo seller, whose staff.json has staff@example.com. */
const NOW = new Date('2026-05-04T13:00:00Z');
const STAFF = { email: 'staff@example.com', password: 'StaffDemo2026!' };
const MEMBER = { username: 'member@example.com', password: 'MuseumDemo2026!' };
let app: FastifyInstance;

const cookieOf = (response: LightMyRequestResponse, name: string) => {
  const found = response.cookies.find((c) => c.name === name);
  return found ? `${name}=${found.value}` : '';
};
const send = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, cookie = '', body?: unknown) =>
  app.inject({
    method,
    url,
    headers: { 'x-ticketing-app': 'ecomm', cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
const codeOf = (response: LightMyRequestResponse) => response.json()._data?.[0]?._code;

async function staffCookie() {
  const response = await send('POST', '/api/staff/login', '', STAFF);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toEqual({ staff: { name: 'Sam Support', email: 'staff@example.com' }, preview: null });
  return cookieOf(response, 'storefront_staff');
}

/** One Adult admission tomorrow, as the cart update's body (with the ZIP its survey asks). */
async function oneAdmission() {
  const events = (await send('GET', '/api/events/available?category=admission')).json();
  const event = events.event_template._data[0];
  const sessions = (
    await send('GET', `/api/events/${event.id}/sessions?_sort=start_datetime&start_datetime._ondate=2026-05-05&_limit=1`)
  ).json();
  const detail = (await send('GET', `/api/events/${event.id}?_embed=ticket_group,ticket_type`)).json();
  const type = detail.ticket_type._data.find((t: { name: string }) => t.name === 'Adult');
  return {
    add: [{ event_session_id: sessions.event_session._data[0].id, ticket_type_id: type.id }],
    additional_info: { [type.ticket_group_id]: { zip_code: '10024' } },
    channel_id: 'web',
  };
}

describeEachDatabase(
  'support staff preview',
  (ctx) => {
    it('staff log in with the hashed password of staff.json; a wrong one is refused without saying which part', async () => {
      const wrong = await send('POST', '/api/staff/login', '', { ...STAFF, password: 'nope-nope' });
      expect(wrong.statusCode).toBe(401);
      expect(codeOf(wrong)).toBe('invalid_credentials');
      expect(wrong.json()._data[0]._extra).toBeUndefined();
      const cookie = await staffCookie();
      const me = await send('GET', '/api/staff/me', cookie);
      expect(me.statusCode).toBe(200);
      expect(me.json().preview).toBeNull();
      // Staff are not shoppers: no account area from a staff session alone.
      expect((await send('GET', '/api/my/user', cookie)).statusCode).toBe(401);
    });

    it('a shopper can never turn preview on: their session, or a made-up staff cookie, is not staff', async () => {
      const login = await send('POST', '/api/login', '', MEMBER);
      expect(login.statusCode, login.body).toBe(200);
      const shopper = cookieOf(login, 'storefront_session');
      expect((await send('GET', '/api/staff/me', shopper)).statusCode).toBe(401);
      const asked = await send('PUT', '/api/staff/preview', shopper, { role: 'member' });
      expect(asked.statusCode).toBe(401);
      expect(codeOf(asked)).toBe('not_authenticated');
      const forged = `storefront_staff=${'a'.repeat(43)}`;
      expect((await send('PUT', '/api/staff/preview', `${shopper}; ${forged}`, { role: 'member' })).statusCode).toBe(401);
      // And the shopper is still just the shopper.
      const user = (await send('GET', '/api/my/user', shopper)).json();
      expect(user.user._data[0].email).toBe('member@example.com');
    });

    it('as a member, the API answers as it answers a current member; as an expired member, the membership has ended', async () => {
      const cookie = await staffCookie();
      const started = await send('PUT', '/api/staff/preview', cookie, { role: 'member', date: '2026-06-01' });
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json().preview).toEqual({ role: 'member', date: '2026-06-01', level: null, blocks: null });
      const user = await send('GET', '/api/my/user?_embed=identity,identity.meta', cookie);
      expect(user.statusCode, user.body).toBe(200);
      expect(user.json().identity._data[0]).toMatchObject({ first_name: 'Preview', last_name: 'Member' });
      const memberships = (await send('GET', '/api/my/membership', cookie)).json().membership._data;
      expect(memberships).toHaveLength(1);
      const [current] = memberships;
      // The term holds both today and the preview's date.
      expect(Date.parse(current.valid_from)).toBeLessThan(NOW.getTime());
      expect(Date.parse(current.valid_to)).toBeGreaterThan(Date.parse('2026-06-01T12:00:00Z'));

      expect((await send('PUT', '/api/staff/preview', cookie, { role: 'expired_member' })).statusCode).toBe(200);
      const expired = (await send('GET', '/api/my/membership', cookie)).json().membership._data;
      expect(Date.parse(expired[0].valid_to)).toBeLessThan(NOW.getTime());

      expect((await send('PUT', '/api/staff/preview', cookie, { role: 'anonymous' })).statusCode).toBe(200);
      expect((await send('GET', '/api/my/user', cookie)).statusCode).toBe(401);
    });

    it('nothing is bought in preview: every change is refused, and allowed again once the preview ends', async () => {
      const cookie = await staffCookie();
      const body = await oneAdmission();
      await send('PUT', '/api/staff/preview', cookie, { role: 'member' });
      const refused = await send('POST', '/api/cart/modify', cookie, body);
      expect(refused.statusCode).toBe(403);
      expect(codeOf(refused)).toBe('preview_read_only');
      expect((await send('POST', '/api/logout', cookie)).statusCode).toBe(403);
      const ended = await send('DELETE', '/api/staff/preview', cookie);
      expect(ended.json().preview).toBeNull();
      const allowed = await send('POST', '/api/cart/modify', cookie, body);
      expect(allowed.statusCode, allowed.body).toBe(200);
    });

    it('a preview visitor is nobody’s account: a password login or a reset asked for its address answers as for an unknown one', async () => {
      const cookie = await staffCookie();
      expect((await send('PUT', '/api/staff/preview', cookie, { role: 'member' })).statusCode).toBe(200);
      expect((await send('GET', '/api/my/user', cookie)).statusCode).toBe(200);
      const email = 'preview-member@staff.invalid';
      // Without the guard this login found a user without a password, mailed it a reset link and said guest_account.
      const login = await send('POST', '/api/login', '', { username: email, password: 'Whatever2026!' });
      expect([login.statusCode, codeOf(login)]).toEqual([401, 'invalid_credentials']);
      const reset = await send('POST', '/api/password_reset/request', '', { email });
      expect(reset.statusCode).toBe(200);
      const mails = await ctx().db.selectFrom('mail_outbox').select('id').where('to_address', '=', email).execute();
      expect(mails).toEqual([]);
    });

    it('a level that is not the seller’s is refused; logging out ends the staff session', async () => {
      const cookie = await staffCookie();
      const bad = await send('PUT', '/api/staff/preview', cookie, { role: 'member', level: '00000000-0000-4000-8000-000000000000' });
      expect(bad.statusCode).toBe(400);
      expect(codeOf(bad)).toBe('validation_failed');
      expect((await send('POST', '/api/staff/logout', cookie)).json()).toEqual({ logged_out: true });
      expect((await send('GET', '/api/staff/me', cookie)).statusCode).toBe(401);
    });
  },
  async (h) => {
    await loadSellerFolder(h.db, path.resolve('sellers/demo'), { now: NOW });
    app = await buildApp({
      db: h.db,
      dbKind: h.kind,
      config: readConfig({ STATIC_DIR: '/nonexistent-static', READ_CACHE_MS: '0' }),
      now: () => NOW,
    });
  },
);

import { describe, expect, it } from 'vitest';
import type { InternalAxiosRequestConfig } from 'axios';
import { fakeServer, type Reply } from '../helpers/fake-api';
import { AccountStore, setEmailError } from '../../src/stores/AccountStore';
import { ApiError } from '../../src/api/errors';

function makeStore(handler: (config: InternalAxiosRequestConfig) => Reply) {
  const { api, seen } = fakeServer(handler);
  const now = new Date('2026-05-04T13:00:00Z');
  return { store: new AccountStore({ api, now: () => now }), seen, now };
}

const fail = (status: number, code: string, _description = '', extra?: Record<string, unknown>): Reply => ({
  status,
  data: { _data: [{ _code: code, _extra: extra }] },
});
const table = (rows: unknown[]) => ({ _data: rows, _count: rows.length });

describe('AccountStore: account area reads', () => {
  it('loads upcoming visits from now on, with booked or redeemed tickets', async () => {
    const { store, seen, now } = makeStore(() => ({ status: 200, data: { order_session: table([{ id: 's1' }]), ticket: table([]) } }));
    expect(await store.loadVisits()).toBe(true);
    expect(store.visits.state).toBe('done');
    expect(seen[0]).toMatchObject({ method: 'GET', url: 'my/order_session' });
    expect(seen[0].params).toMatchObject({ 'ticket.state._in': 'booked,redeemed', 'start_datetime._gte': now.toISOString() });
    expect(String(seen[0].params._embed)).toContain('ticket');
  });

  it('an order that is not found reads "We could not find that order."; other failures the generic text', async () => {
    const { store } = makeStore((c) => (c.url?.endsWith('missing') ? fail(404, 'not_found') : fail(500, 'internal')));
    expect(await store.loadOrder('missing')).toBe(false);
    expect(store.order.error).toEqual({ key: 'orders.notFound' });
    expect(store.order.data).toBeNull();
    await store.loadOrders();
    expect(store.orders.state).toBe('error');
    expect(store.orders.error).toEqual({ key: 'orders.loadError' });
  });

  it('a visit the session list does not hold is a 404', async () => {
    const { store, seen } = makeStore(() => ({ status: 200, data: { order_session: table([]) } }));
    expect(await store.loadVisit('s-unknown')).toBe(false);
    expect(seen[0].params).toMatchObject({ id: 's-unknown' });
    expect(store.visit.error).toEqual({ key: 'orders.notFound' });
  });

  it('reads the membership with its role and program', async () => {
    const { store, seen } = makeStore(() => ({ status: 200, data: { membership: table([{ id: 'm' }]) } }));
    await store.loadMembership();
    expect(seen[0].url).toBe('my/membership');
    expect(String(seen[0].params._embed)).toContain('role.membership_program');
    expect(store.membership.data?.membership._count).toBe(1);
  });
});

describe('AccountStore: recovery', () => {
  it('forgot password: an unknown address (404) shows the same confirmation', async () => {
    const { store, seen } = makeStore(() => fail(404, 'not_found'));
    expect(await store.requestPasswordReset(' ada@example.com ')).toBe(true);
    expect(store.forgot.state).toBe('done');
    expect(seen[0]).toMatchObject({ method: 'POST', url: 'password_reset/request', body: { email: 'ada@example.com' } });
  });

  it('forgot membership: resend with memberships_only; 404 counts as success', async () => {
    const { store, seen } = makeStore(() => fail(404, 'not_found'));
    expect(await store.requestMembershipDetails('kim@example.com')).toBe(true);
    expect(seen[0]).toMatchObject({ url: 'ticket_order/resend', body: { email: 'kim@example.com', memberships_only: true } });
  });

  it('resend tickets: 404 reads "No orders could be found for this email address."; success counts the mails', async () => {
    const none = makeStore(() => fail(404, 'not_found'));
    expect(await none.store.resendTickets('nobody@example.com')).toBe(false);
    expect(none.store.resend.error).toEqual({ key: 'resend.noOrders' });
    expect(none.seen[0].body).toEqual({ email: 'nobody@example.com' });
    const some = makeStore(() => ({ status: 200, data: { ticket_order: { _data: [], _count: 2 } } }));
    expect(await some.store.resendTickets('ada@example.com')).toBe(true);
    expect(some.store.resend.data).toBe(2);
    const limited = makeStore(() => fail(429, 'rate_limited'));
    await limited.store.resendTickets('ada@example.com');
    expect(limited.store.resend.error).toEqual({ key: 'recovery.rateLimited' });
  });

  it('reset link: not_found and validate_failed read the invalid-link text; no token needs no call', async () => {
    for (const [status, code] of [
      [404, 'not_found'],
      [400, 'validate_failed'],
    ] as const) {
      const { store } = makeStore(() => fail(status, code));
      expect(await store.validateResetToken('tok')).toBe(false);
      expect(store.token.error).toEqual({ key: 'recovery.reset.invalidLink' });
    }
    const empty = makeStore(() => {
      throw new Error('no call expected');
    });
    expect(await empty.store.validateResetToken('')).toBe(false);
    expect(empty.store.token.error).toEqual({ key: 'recovery.reset.invalidLink' });
    expect(empty.seen).toHaveLength(0);
  });

  it('reset: the email of a valid token; a refused password reads "Invalid password"', async () => {
    const { store, seen } = makeStore((c) =>
      c.url === 'password_reset/validate'
        ? { status: 200, data: { identity: table([{ email: 'ada@example.com' }]) } }
        : fail(400, 'validation_failed', 'Invalid password', { field: 'password' }),
    );
    await store.validateResetToken('tok');
    expect(store.token.data).toBe('ada@example.com');
    expect(await store.resetPassword('tok', 'short', 'short')).toBe(false);
    expect(seen[1].body).toEqual({ token: 'tok', password: 'short', password_confirm: 'short' });
    expect(store.reset.error).toEqual({ key: 'recovery.reset.invalidPassword' });
  });

  it('set email: 409 names the address ("Another user account is using {email}")', async () => {
    const { store, seen } = makeStore(() => fail(409, 'email_in_use', 'taken', { identity_id: 'x' }));
    expect(await store.setEmailAddress(' kim@example.com ', 'kim@example.com')).toBe(false);
    expect(seen[0]).toMatchObject({ method: 'PUT', url: 'my/user', body: { email: 'kim@example.com', email_confirm: 'kim@example.com' } });
    expect(store.setEmail.error).toEqual({ key: 'recovery.setEmail.inUse', values: { email: 'kim@example.com' } });
  });
});

describe("set e-mail refusals (issue 18: worded by code and reason, never by the API's English)", () => {
  const refusal = (status: number, code: string, extra?: Record<string, unknown>) => new ApiError(status, code, '', 'user', extra);
  it('tells an invalid address, an address that cannot change, a mismatch and an address in use apart', () => {
    expect(setEmailError(refusal(400, 'validation_failed', { field: 'email', reason: 'email_invalid' }), 'a@b')).toEqual({
      key: 'recovery.setEmail.invalid',
    });
    expect(setEmailError(refusal(400, 'validation_failed', { field: 'email', reason: 'email_fixed' }), 'a@b.co')).toEqual({
      key: 'recovery.setEmail.cannotChange',
    });
    expect(setEmailError(refusal(400, 'validation_failed', { field: 'email_confirm' }), 'a@b.co')).toEqual({
      key: 'recovery.setEmail.mismatch',
    });
    expect(setEmailError(refusal(409, 'email_in_use'), 'a@b.co')).toEqual({ key: 'recovery.setEmail.inUse', values: { email: 'a@b.co' } });
  });
});

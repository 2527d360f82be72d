import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/errors';
import type { LoginPayload } from '../../src/api/auth';
import { externalLoginTarget, loginPathOf, normalizeOtp, readOtpLink, withoutOtpParams } from '../../src/domain/auth-config';
import {
  fieldsFor,
  firstStep,
  inputValue,
  loginErrorMessage,
  loginPayload,
  otpAfterError,
  validateLoginField,
  validateLoginFields,
} from '../../src/domain/login';
import { homeOptions } from '../../src/domain/home';
import { LoginFlowStore, type LoginSession, type Timers } from '../../src/stores/LoginFlowStore';

const err = (status: number, code: string, extra?: Record<string, unknown>, description = `${code} text`) =>
  new ApiError(status, code, description, 'login', extra);

describe('login field rules (spec section 5)', () => {
  it('required, trimmed, email valid', () => {
    expect(validateLoginField('username', '   ')).toBe('required');
    expect(validateLoginField('username', ' member@example.com ')).toBeNull();
    expect(validateLoginField('username', 'member@example')).toBe('email');
    expect(validateLoginField('username', 'not an email')).toBe('email');
    expect(validateLoginField('password', '')).toBe('required');
    expect(validateLoginField('password', ' pw with spaces ')).toBeNull();
  });

  it('max lengths: 50 generally, email 100, ZIP 5', () => {
    expect(validateLoginField('scan_code', 'M'.repeat(50))).toBeNull();
    expect(validateLoginField('scan_code', 'M'.repeat(51))).toBe('tooLong');
    expect(validateLoginField('last_name', 'R'.repeat(51))).toBe('tooLong');
    expect(validateLoginField('username', `${'a'.repeat(94)}@ex.com`)).toBe('tooLong');
    expect(validateLoginField('username', `${'a'.repeat(93)}@ex.com`)).toBeNull();
    expect(validateLoginField('zip_code', '10024')).toBeNull();
    expect(validateLoginField('zip_code', '100245')).toBe('tooLong');
    expect(inputValue('zip_code', '10024-1234')).toBe('10024');
    expect(inputValue('username', 'x'.repeat(150))).toHaveLength(100);
  });

  it('the code is exactly 6 characters, digits or letters; pasted text is stripped', () => {
    expect(normalizeOtp(' 123 456 ')).toBe('123456');
    expect(normalizeOtp('AB-12-CD')).toBe('AB12CD');
    expect(normalizeOtp('Your passcode is 654321.')).toBe('654321');
    expect(inputValue('otp', '12 34 56 78')).toBe('123456');
    expect(validateLoginField('otp', '12345')).toBe('otpLength');
    expect(validateLoginField('otp', '123456')).toBeNull();
    expect(validateLoginField('otp', 'AB12CD')).toBeNull();
    expect(validateLoginField('otp', '')).toBe('required');
  });

  it('scan-code login needs every code field filled', () => {
    expect(validateLoginFields(fieldsFor('scan_code', 'credentials'), { scan_code: 'M20260001' })).toEqual({ zip_code: 'required' });
    expect(validateLoginFields(fieldsFor('scan_code_last_name', 'credentials'), { last_name: 'Rivera' })).toEqual({
      scan_code: 'required',
    });
    expect(validateLoginFields(fieldsFor('scan_code', 'credentials'), { scan_code: 'M20260001', zip_code: '10024' })).toEqual({});
  });
});

describe('login modes, payloads and texts', () => {
  it('each mode asks for its own fields', () => {
    expect(firstStep('password')).toBe('credentials');
    expect(firstStep('otp')).toBe('email');
    expect(firstStep('otp_or_password')).toBe('email');
    expect(fieldsFor('password', 'credentials')).toEqual(['username', 'password']);
    expect(fieldsFor('scan_code', 'credentials')).toEqual(['scan_code', 'zip_code']);
    expect(fieldsFor('scan_code_password', 'credentials')).toEqual(['username', 'scan_code']);
    expect(fieldsFor('scan_code_last_name', 'credentials')).toEqual(['scan_code', 'last_name']);
    expect(fieldsFor('otp', 'otp_form')).toEqual(['otp']);
    expect(fieldsFor('otp_or_password', 'password')).toEqual(['password']);
  });

  it('payloads are trimmed (the password is not) and carry the cart id', () => {
    expect(loginPayload('scan_code', { scan_code: ' M20260001 ', zip_code: '10024 ' }, 'c1')).toEqual({
      method: 'scan_code',
      scan_code: 'M20260001',
      zip_code: '10024',
      cart_id: 'c1',
    });
    expect(loginPayload('password', { username: ' a@b.co ', password: ' pw ' })).toEqual({
      method: 'password',
      username: 'a@b.co',
      password: ' pw ',
    });
    expect(loginPayload('scan_code_last_name', { scan_code: 'M1', last_name: ' Rivera ' })).toEqual({
      method: 'scan_code_last_name',
      scan_code: 'M1',
      last_name: 'Rivera',
    });
  });

  it('maps error codes to the spec texts, the configured text winning for invalid credentials', () => {
    expect(loginErrorMessage(err(401, 'invalid_credentials'), 'scan_code')).toEqual({ key: 'login.invalid.scan_code' });
    expect(loginErrorMessage(err(401, 'invalid_credentials'), 'scan_code', 'Ask the front desk.')).toEqual({ text: 'Ask the front desk.' });
    expect(loginErrorMessage(err(401, 'incorrect_password'), 'password')).toEqual({ key: 'login.errors.incorrectPassword' });
    expect(loginErrorMessage(err(401, 'guest_account'), 'password')).toEqual({ key: 'login.errors.guestAccount' });
    expect(loginErrorMessage(err(403, 'login_disabled'), 'password')).toEqual({ key: 'login.disabled' });
    // Every other refusal is worded from its code by the one table (the API sends no text of its own).
    expect(loginErrorMessage(err(429, 'rate_limited', {}, 'Too many tries.'), 'password')).toEqual({ key: 'errors.rateLimited' });
    expect(loginErrorMessage(err(500, 'boom'), 'password')).toEqual({ key: 'login.errors.unexpected' });
  });

  it('external modes: sso and hosted with an OpenID Connect provider go to /api/sso/start; the others need their URL', () => {
    const opts = { apiBaseUrl: '/api/', returnTo: 'https://shop.example/checkout', cartId: 'c1' };
    const oidc = { issuer: 'https://idp.example', client_id: 'museum' };
    expect(externalLoginTarget('sso', {}, opts)).toEqual({ errorKey: 'login.externalUrlMissing' });
    // A bare external URL is no longer a way out for sso: the login must come back through the callback.
    expect(externalLoginTarget('sso', { external_login_url: 'https://idp.example/sso' }, opts)).toEqual({
      errorKey: 'login.externalUrlMissing',
    });
    expect(externalLoginTarget('sso', { oidc: { issuer: 'https://idp.example' } }, opts)).toEqual({ errorKey: 'login.externalUrlMissing' });
    const start = { url: '/api/sso/start?redirect=https%3A%2F%2Fshop.example%2Fcheckout&cart_id=c1&_seller=demo' };
    expect(externalLoginTarget('sso', { oidc }, { ...opts, seller: 'demo' })).toEqual(start);
    expect(externalLoginTarget('hosted', { oidc, external_login_url: 'https://idp.example/x' }, { ...opts, seller: 'demo' })).toEqual(
      start,
    );
    expect(externalLoginTarget('hosted', {}, opts)).toEqual({ errorKey: 'login.externalUrlMissing' });
    expect(externalLoginTarget('hosted', { external_login_url: 'https://idp.example/x' }, opts)).toEqual({
      url: 'https://idp.example/x?redirect=https%3A%2F%2Fshop.example%2Fcheckout&cart_id=c1',
    });
    expect(externalLoginTarget('auth0_ecomm', { external_login_url: 'https://id.example/login?x=1' }, opts)).toEqual({
      url: 'https://id.example/login?x=1&redirect=https%3A%2F%2Fshop.example%2Fcheckout&cart_id=c1',
    });
    expect(externalLoginTarget('password', {}, opts)).toEqual({ errorKey: 'login.unknownMethod' });
  });

  it('the one-time link is read whole and removed from the address', () => {
    expect(readOtpLink('?otp=12%2034%2056&token=abc&next=%2Fcheckout')).toEqual({ otp: '123456', token: 'abc' });
    expect(readOtpLink('?otp=123456')).toBeNull();
    expect(withoutOtpParams('?otp=123456&token=abc&next=%2Fcheckout')).toBe('?next=%2Fcheckout');
    expect(withoutOtpParams('?otp=1&token=2')).toBe('');
    expect(loginPathOf(undefined)).toBe('/login/callback');
    expect(loginPathOf({ login_path: 'member/login/' })).toBe('/member/login');
  });

  it('home options follow the configured order, without login when disabled or join without the event', () => {
    const ctx = { loginEnabled: true, membershipEventId: 'm1' };
    expect(homeOptions(undefined, ctx).map((o) => o.kind)).toEqual(['login', 'join', 'guest']);
    expect(homeOptions(['guest', 'login', 'bogus', 'guest'], ctx).map((o) => o.kind)).toEqual(['guest', 'login']);
    expect(homeOptions(['login', 'join', 'guest'], { loginEnabled: false, membershipEventId: null }).map((o) => o.kind)).toEqual(['guest']);
    expect(homeOptions(['join'], ctx)).toEqual([{ kind: 'join', to: '/events/m1' }]);
  });
});

describe('OTP rules (spec sections 4, 8, 9)', () => {
  it('a wrong code counts; the third needs a new token', () => {
    let state = { attempts: 0, needsNewToken: false };
    const first = otpAfterError(state, err(401, 'otp_incorrect', { remaining_attempts: 2 }));
    expect(first).toEqual({ kind: 'wrong', state: { attempts: 1, needsNewToken: false }, remaining: 2 });
    state = (first as { state: typeof state }).state;
    const second = otpAfterError(state, err(401, 'otp_incorrect', { remaining_attempts: 1 }));
    expect(second).toMatchObject({ kind: 'wrong', remaining: 1 });
    state = (second as { state: typeof state }).state;
    expect(otpAfterError(state, err(401, 'otp_incorrect', { remaining_attempts: 0 }))).toEqual({
      kind: 'dead',
      state: { attempts: 3, needsNewToken: true },
      reason: 'attempts',
    });
  });

  it('not_authorized and otp_token_expired need a new token; not_available_yet retries after 5 s', () => {
    const fresh = { attempts: 0, needsNewToken: false };
    expect(otpAfterError(fresh, err(401, 'not_authorized'))).toMatchObject({ kind: 'dead', reason: 'not_authorized' });
    expect(otpAfterError(fresh, err(401, 'otp_token_expired'))).toMatchObject({ kind: 'dead', reason: 'expired' });
    expect(otpAfterError(fresh, err(425, 'not_available_yet'))).toEqual({ kind: 'retry', afterMs: 5000 });
    expect(otpAfterError(fresh, err(429, 'rate_limited'))).toEqual({ kind: 'other' });
  });
});

/** Timers under test control: run() fires those due by `now`. */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = ++seq;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (id) => {
      pending.delete(id as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...pending])
      if (t.at <= now) {
        pending.delete(id);
        t.fn();
      }
  };
  return { timers, advance, pending };
}

function fakeSession(overrides: Partial<LoginSession> = {}): LoginSession & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    login: vi.fn(async (p: LoginPayload) => {
      calls.push(`login ${JSON.stringify(p)}`);
    }),
    requestOtp: vi.fn(async (email: string) => {
      calls.push(`request ${email}`);
      return `token-${calls.length}`;
    }),
    verifyOtp: vi.fn(async (token: string, otp: string) => {
      calls.push(`verify ${token} ${otp}`);
    }),
    ...overrides,
  };
}

describe('LoginFlowStore', () => {
  it('a field error stops the submit: nothing is sent', async () => {
    const session = fakeSession();
    const flow = new LoginFlowStore({ session, method: 'password' });
    flow.setField('username', 'nope');
    await flow.submitCredentials();
    expect(flow.fieldErrors).toEqual({ username: 'email', password: 'required' });
    expect(session.calls).toEqual([]);
  });

  it('password mode: logs in with the trimmed payload and calls onSuccess; a failure shows the text and clears submitting', async () => {
    let refuse = true;
    const session = fakeSession({
      login: vi.fn(async () => {
        if (refuse) throw err(401, 'incorrect_password');
      }),
    });
    const onSuccess = vi.fn();
    const flow = new LoginFlowStore({ session, method: 'password', onSuccess, cartId: () => 'c9' });
    flow.setField('username', ' member@example.com ');
    flow.setField('password', 'wrong');
    const pending = flow.submitCredentials();
    expect(flow.submitting).toBe(true);
    await pending;
    expect(flow.submitting).toBe(false);
    expect(flow.error).toEqual({ key: 'login.errors.incorrectPassword' });
    expect(session.login).toHaveBeenCalledWith({ method: 'password', username: 'member@example.com', password: 'wrong', cart_id: 'c9' });
    refuse = false;
    await flow.submitCredentials();
    expect(onSuccess).toHaveBeenCalledTimes(1);
    expect(flow.done).toBe(true);
  });

  it('otp_or_password: the email step offers the password step, which goes back to the email', async () => {
    const session = fakeSession();
    const flow = new LoginFlowStore({ session, method: 'otp_or_password' });
    expect(flow.step).toBe('email');
    expect(flow.offersPassword).toBe(true);
    flow.setField('username', 'member@example.com');
    await flow.submitEmail('password');
    expect(flow.step).toBe('password');
    flow.setField('password', 'pw');
    flow.back();
    expect(flow.step).toBe('email');
    expect(flow.values.password).toBe('');
    expect(flow.email).toBe('member@example.com');
    await flow.submitEmail('password');
    flow.setField('password', 'pw');
    await flow.submitCredentials();
    expect(session.login).toHaveBeenCalledWith({ method: 'password', username: 'member@example.com', password: 'pw' });
  });

  it('otp: three wrong codes, then only a new passcode helps; the hint shows after 30 s', async () => {
    const { timers, advance } = manualTimers();
    let tries = 0;
    const session = fakeSession({
      verifyOtp: vi.fn(async () => {
        tries += 1;
        throw err(401, 'otp_incorrect', { remaining_attempts: 3 - tries });
      }),
    });
    const flow = new LoginFlowStore({ session, method: 'otp', timers });
    expect(flow.offersPassword).toBe(false);
    flow.setField('username', 'member@example.com');
    await flow.submitEmail('otp');
    expect(flow.step).toBe('otp_form');
    expect(flow.token).toBe('token-1');
    advance(29_999);
    expect(flow.showCodeHint).toBe(false);
    advance(1);
    expect(flow.showCodeHint).toBe(true);

    flow.setField('otp', '111 111');
    await flow.submitOtp();
    expect(flow.error).toEqual({ key: 'login.errors.invalidCode' });
    expect(flow.notes).toEqual([{ key: 'login.otp.remainingAttempts', values: { count: 2 } }]);
    await flow.submitOtp();
    await flow.submitOtp();
    expect(flow.needsNewToken).toBe(true);
    expect(flow.notes).toEqual([{ key: 'login.otp.mustRequestNewLink' }]);
    expect(flow.canSubmitOtp).toBe(false);
    await flow.submitOtp();
    expect(session.verifyOtp).toHaveBeenCalledTimes(3);

    await flow.requestCode();
    expect(flow.token).not.toBe('token-1');
    expect(flow.needsNewToken).toBe(false);
    expect(flow.otpAttempts).toBe(0);
    expect(flow.showCodeHint).toBe(false);
  });

  it('otp: not_available_yet submits again by itself after 5 s', async () => {
    const { timers, advance } = manualTimers();
    let first = true;
    const session = fakeSession({
      verifyOtp: vi.fn(async () => {
        if (first) {
          first = false;
          throw err(425, 'not_available_yet');
        }
      }),
    });
    const onSuccess = vi.fn();
    const flow = new LoginFlowStore({ session, method: 'otp', timers, onSuccess });
    flow.setField('username', 'member@example.com');
    await flow.submitEmail('otp');
    flow.setField('otp', '123456');
    await flow.submitOtp();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(flow.error).toBeNull();
    expect(flow.notes).toEqual([{ key: 'login.otp.retrying' }]);
    advance(4_999);
    expect(session.verifyOtp).toHaveBeenCalledTimes(1);
    advance(1);
    await vi.waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(session.verifyOtp).toHaveBeenCalledTimes(2);
  });

  it('the one-time link logs in once; an expired one asks for a new link', async () => {
    const session = fakeSession();
    const onSuccess = vi.fn();
    const flow = new LoginFlowStore({ session, method: 'otp', onSuccess });
    await flow.loginWithLink({ otp: '123456', token: 'tok' });
    await flow.loginWithLink({ otp: '123456', token: 'tok' });
    expect(session.verifyOtp).toHaveBeenCalledTimes(1);
    expect(onSuccess).toHaveBeenCalledTimes(1);

    const expired = new LoginFlowStore({
      session: fakeSession({
        verifyOtp: vi.fn(async () => {
          throw err(401, 'otp_token_expired');
        }),
      }),
      method: 'otp',
    });
    await expired.loginWithLink({ otp: '123456', token: 'old' });
    expect(expired.step).toBe('otp_form');
    expect(expired.error).toEqual({ key: 'login.errors.invalidCode' });
    expect(expired.notes).toEqual([{ key: 'login.otp.expired' }]);
    expect(expired.needsNewToken).toBe(true);
  });

  it('a link in a browser without cookies shows otp_unavailable with the passcode', async () => {
    const session = fakeSession();
    const flow = new LoginFlowStore({ session, method: 'otp' });
    await flow.loginWithLink({ otp: '654321', token: 'tok' }, false);
    expect(flow.step).toBe('otp_unavailable');
    expect(flow.linkCode).toBe('654321');
    expect(flow.error).toEqual({ key: 'login.cookiesDisabled' });
    expect(session.verifyOtp).not.toHaveBeenCalled();
  });

  it('scan_code: member id and ZIP, the per-mode text on refusal', async () => {
    const session = fakeSession({
      login: vi.fn(async () => {
        throw err(401, 'invalid_credentials');
      }),
    });
    const flow = new LoginFlowStore({ session, method: 'scan_code' });
    flow.setField('scan_code', 'M20260001');
    flow.setField('zip_code', '99999');
    await flow.submitCredentials();
    expect(session.login).toHaveBeenCalledWith({ method: 'scan_code', scan_code: 'M20260001', zip_code: '99999' });
    expect(flow.error).toEqual({ key: 'login.invalid.scan_code' });
  });
});

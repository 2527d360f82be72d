/** Pure rules of the login form: steps, field rules (spec section 5) and error texts (section 8). No I/O. */
import { normalizeOtp, OTP_LENGTH, type LoginMethod } from './auth-config';
import { errorMessageKey } from './error-messages';

/** Spec section 9 OTP constants (the code's length is in auth-config.ts). */
export const OTP_MAX_ATTEMPTS = 3;
export const OTP_HINT_AFTER_MS = 30_000;
export const OTP_RETRY_AFTER_MS = 5_000;

/**
 * Spec section 2 steps. `credentials` is the single form of the modes that ask everything at once
 * (password, and the member-id modes); otp and otp_or_password start at `email`.
 */
export type LoginStep = 'email' | 'password' | 'otp_form' | 'otp_unavailable' | 'credentials';

export type LoginField = 'username' | 'password' | 'scan_code' | 'zip_code' | 'last_name' | 'otp';

/** Spec section 5 login field limits: 50 generally, email 100, ZIP 5. */
export const LOGIN_MAX_LENGTH: Record<LoginField, number> = {
  username: 100,
  password: 254,
  scan_code: 50,
  zip_code: 5,
  last_name: 50,
  otp: OTP_LENGTH,
};

export function firstStep(method: LoginMethod): LoginStep {
  return method === 'otp' || method === 'otp_or_password' ? 'email' : 'credentials';
}

/** The fields each mode and step asks for (spec section 2 "Login modes by config"). */
export function fieldsFor(method: LoginMethod, step: LoginStep): LoginField[] {
  if (step === 'email') return ['username'];
  if (step === 'password') return ['password'];
  if (step === 'otp_form') return ['otp'];
  if (step === 'otp_unavailable') return [];
  switch (method) {
    case 'password':
      return ['username', 'password'];
    case 'scan_code':
      return ['scan_code', 'zip_code'];
    case 'scan_code_password':
      return ['username', 'scan_code'];
    case 'scan_code_last_name':
      return ['scan_code', 'last_name'];
    default:
      return [];
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What an input keeps as the shopper types: the code is stripped, a ZIP keeps at most 5 characters. */
export function inputValue(field: LoginField, raw: string): string {
  if (field === 'otp') return normalizeOtp(raw);
  return raw.slice(0, LOGIN_MAX_LENGTH[field]);
}

export type FieldErrorKey = 'required' | 'email' | 'tooLong' | 'otpLength';

/** Spec section 5 login field rules, on the trimmed value (the password is not trimmed: spaces can be in it). */
export function validateLoginField(field: LoginField, raw: string): FieldErrorKey | null {
  const value = field === 'password' ? raw : raw.trim();
  if (!value) return 'required';
  if (value.length > LOGIN_MAX_LENGTH[field]) return 'tooLong';
  if (field === 'username' && !EMAIL.test(value)) return 'email';
  if (field === 'otp' && !new RegExp(`^[0-9A-Za-z]{${OTP_LENGTH}}$`).test(value)) return 'otpLength';
  return null;
}

export function validateLoginFields(
  fields: LoginField[],
  values: Partial<Record<LoginField, string>>,
): Partial<Record<LoginField, FieldErrorKey>> {
  const errors: Partial<Record<LoginField, FieldErrorKey>> = {};
  for (const field of fields) {
    const error = validateLoginField(field, values[field] ?? '');
    if (error) errors[field] = error;
  }
  return errors;
}

/** The trimmed body of POST login for a single-form mode (spec section 3 login payload). */
export function loginPayload(method: LoginMethod, values: Partial<Record<LoginField, string>>, cartId?: string | null) {
  const v = (f: LoginField) => (f === 'password' ? (values[f] ?? '') : (values[f] ?? '').trim());
  const base = { method, ...(cartId ? { cart_id: cartId } : {}) };
  switch (method) {
    case 'scan_code':
      return { ...base, scan_code: v('scan_code'), zip_code: v('zip_code') };
    case 'scan_code_password':
      return { ...base, username: v('username'), scan_code: v('scan_code') };
    case 'scan_code_last_name':
      return { ...base, scan_code: v('scan_code'), last_name: v('last_name') };
    default:
      return { ...base, method: 'password', username: v('username'), password: v('password') };
  }
}

/** A text to show: an i18n key with values, or a text the server or the seller config wrote. */
export type LoginMessage = { key: string; values?: Record<string, unknown> } | { text: string };

export interface ErrorLike {
  status: number;
  _code: string;
  _extra?: Record<string, unknown>;
}

/** The per-mode invalid-credentials key (spec section 8, e.g. 'Member details not found. ...'). */
export function invalidCredentialsKey(method: LoginMethod): string {
  switch (method) {
    case 'scan_code':
    case 'scan_code_password':
    case 'scan_code_last_name':
      return `login.invalid.${method}`;
    case 'otp':
      return 'login.errors.invalidCode';
    default:
      return 'login.invalid.password';
  }
}

/**
 * Spec section 8, login: one table from error code to text. A 401 shows the seller's configured text, else the
 * per-mode text (the server's description says the same and is the fallback for codes we do not know).
 */
export function loginErrorMessage(error: ErrorLike, method: LoginMethod, configuredText?: string | null): LoginMessage {
  switch (error._code) {
    case 'invalid_credentials':
      return configuredText ? { text: configuredText } : { key: invalidCredentialsKey(method) };
    case 'incorrect_password':
      return { key: 'login.errors.incorrectPassword' };
    case 'guest_account':
      return { key: 'login.errors.guestAccount' };
    case 'login_disabled':
      return { key: 'login.disabled' };
    case 'external_login_url_missing':
      return { key: 'login.externalUrlMissing' };
    case 'unknown_auth_method':
      return { key: 'login.unknownMethod' };
    case 'validate_not_email':
      return { key: 'login.fieldErrors.email' };
    case 'otp_incorrect':
    case 'not_authorized':
    case 'otp_token_expired':
      return { key: 'login.errors.invalidCode' };
    case 'network_error':
      return { key: 'login.errors.network' };
  }
  if (error.status === 401 && configuredText) return { text: configuredText };
  if (error.status >= 400 && error.status < 500) return { key: errorMessageKey(error) };
  return { key: 'login.errors.unexpected' };
}

export interface OtpState {
  /** Wrong codes typed against the current token. */
  attempts: number;
  /** The token can no longer log in: the shopper must ask for a new passcode (link). */
  needsNewToken: boolean;
}

export type OtpOutcome =
  | { kind: 'retry'; afterMs: number }
  | { kind: 'wrong'; state: OtpState; remaining: number }
  | { kind: 'dead'; state: OtpState; reason: 'attempts' | 'expired' | 'not_authorized' }
  | { kind: 'other' };

/**
 * Spec section 4 and 8, OTP: otp_incorrect counts a try (after 3 a new token is required); not_authorized and
 * otp_token_expired need a new token at once; not_available_yet retries after 5 s.
 */
export function otpAfterError(state: OtpState, error: ErrorLike): OtpOutcome {
  switch (error._code) {
    case 'not_available_yet':
      return { kind: 'retry', afterMs: OTP_RETRY_AFTER_MS };
    case 'otp_incorrect': {
      const attempts = state.attempts + 1;
      const fromServer = typeof error._extra?.remaining_attempts === 'number' ? (error._extra.remaining_attempts as number) : null;
      const remaining = Math.max(0, Math.min(OTP_MAX_ATTEMPTS - attempts, fromServer ?? Infinity));
      if (remaining <= 0) return { kind: 'dead', state: { attempts, needsNewToken: true }, reason: 'attempts' };
      return { kind: 'wrong', state: { attempts, needsNewToken: false }, remaining };
    }
    case 'otp_token_expired':
      return { kind: 'dead', state: { ...state, needsNewToken: true }, reason: 'expired' };
    case 'not_authorized':
      return { kind: 'dead', state: { ...state, needsNewToken: true }, reason: 'not_authorized' };
    default:
      return { kind: 'other' };
  }
}

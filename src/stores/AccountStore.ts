import { makeAutoObservable, runInAction } from 'mobx';
import type { AxiosInstance } from 'axios';
import * as accountApi from '../api/account';
import type { OrdersResponse, OrderSessionsResponse } from '../api/account';
import type { MembershipResponse } from '../api/auth';
import { ApiError, toApiError } from '../api/errors';
import { createPurchaser } from '../api/checkout';

export type RequestState = 'idle' | 'loading' | 'done' | 'error';

/** An i18n key and its values: what a failed request shows (spec section 8). */
export interface AccountMessage {
  key: string;
  values?: Record<string, string>;
}

/** Spec section 8, orders: 404 'We could not find that order.'; others 'Oops! Sorry, something went wrong.' */
export function ordersError(error: ApiError): AccountMessage {
  return { key: error.status === 404 ? 'orders.notFound' : 'orders.loadError' };
}

const RATE_LIMITED: AccountMessage = { key: 'recovery.rateLimited' };
const GENERIC: AccountMessage = { key: 'orders.loadError' };
const RESET_INVALID_CODES = ['not_found', 'validate_failed'];

/** Resend (spec section 8): 404 'No orders could be found for this email address.'; the forgot pages treat it
 *  as success so they say nothing about whether an address is known. */
export function resendError(error: ApiError, notFoundIsSuccess: boolean): AccountMessage | null {
  if (error.status === 404) return notFoundIsSuccess ? null : { key: 'resend.noOrders' };
  if (error.status === 429) return RATE_LIMITED;
  if (error._code === 'validate_not_email' || error._code === 'validation_failed') return { key: 'recovery.emailInvalid' };
  return GENERIC;
}

/** Reset link: not_found and validate_failed read 'This reset link is not valid. It may have expired.'; a
 *  refused password reads 'Invalid password'. */
export function resetError(error: ApiError): AccountMessage {
  if (RESET_INVALID_CODES.includes(error._code)) return { key: 'recovery.reset.invalidLink' };
  if (error._code === 'validation_failed') {
    return { key: error._extra?.field === 'password_confirm' ? 'recovery.reset.mismatch' : 'recovery.reset.invalidPassword' };
  }
  if (error.status === 429) return RATE_LIMITED;
  return GENERIC;
}

/** Set email: 409 'Another user account is using {email}. Please contact us...'. */
export function setEmailError(error: ApiError, email: string): AccountMessage {
  if (error.status === 409) return { key: 'recovery.setEmail.inUse', values: { email } };
  if (error._code === 'validation_failed' && error._extra?.field === 'email_confirm') return { key: 'recovery.setEmail.mismatch' };
  if (error._code === 'validation_failed' && error._extra?.reason === 'email_invalid') return { key: 'recovery.setEmail.invalid' };
  // An account that has an address keeps it (a stolen session cannot move it to another mailbox).
  if (error._code === 'validation_failed' && error._extra?.reason === 'email_fixed') {
    return { key: 'recovery.setEmail.cannotChange' };
  }
  if (error.status === 401) return { key: 'recovery.setEmail.loginFirst' };
  return GENERIC;
}

/** Sign-up (issue 13): an e-mail with an account is answered as a login is (spec section 8's guest_account and
 *  incorrect_password); a password the rules refuse reads 'Invalid password'. */
export function signUpError(error: ApiError): AccountMessage {
  if (error._code === 'guest_account') return { key: 'login.errors.guestAccount' };
  if (error._code === 'incorrect_password') return { key: 'login.errors.incorrectPassword' };
  if (error._code === 'validation_failed' && error._extra?.field === 'password') return { key: 'recovery.reset.invalidPassword' };
  if (error._code === 'validation_failed' && String(error._extra?.field ?? '').startsWith('email')) return { key: 'recovery.emailInvalid' };
  if (error.status === 429) return RATE_LIMITED;
  return GENERIC;
}

export interface SignUpDetails {
  first_name: string;
  last_name: string;
  email: string;
  email_confirm: string;
  password: string;
}

/** One call's state: loading, done with data, or the message to show. */
export class Request<T> {
  state: RequestState = 'idle';
  data: T | null = null;
  error: AccountMessage | null = null;

  constructor() {
    makeAutoObservable(this, {}, { autoBind: true });
  }

  get loading(): boolean {
    return this.state === 'loading';
  }

  /** Runs `call`; a failure is turned into a message by `describe` (null there means: count it as success). */
  async run(call: () => Promise<T>, describe: (error: ApiError) => AccountMessage | null): Promise<boolean> {
    this.state = 'loading';
    this.error = null;
    try {
      const data = await call();
      runInAction(() => {
        this.data = data;
        this.state = 'done';
      });
      return true;
    } catch (err) {
      const message = describe(toApiError(err));
      runInAction(() => {
        this.data = null;
        this.error = message;
        this.state = message ? 'error' : 'done';
      });
      return !message;
    }
  }

  reset(): void {
    this.state = 'idle';
    this.data = null;
    this.error = null;
  }
}

export interface AccountStoreDeps {
  api: AxiosInstance;
  now?: () => Date;
}

/**
 * The account area and recovery screens' data (created by those screens, not by the root store):
 * GET my/membership, my/ticket_order, my/order_session, one order, one visit, and the recovery calls.
 */
export class AccountStore {
  readonly membership = new Request<MembershipResponse>();
  readonly orders = new Request<OrdersResponse>();
  readonly order = new Request<OrdersResponse>();
  readonly visits = new Request<OrderSessionsResponse>();
  readonly visit = new Request<OrderSessionsResponse>();
  readonly forgot = new Request<void>();
  readonly resend = new Request<number>();
  readonly token = new Request<string>();
  readonly reset = new Request<string>();
  readonly setEmail = new Request<unknown>();
  readonly signUp = new Request<void>();

  private readonly deps: AccountStoreDeps;

  constructor(deps: AccountStoreDeps) {
    this.deps = deps;
    makeAutoObservable<AccountStore, 'deps'>(this, { deps: false }, { autoBind: true });
  }

  private now(): Date {
    return this.deps.now ? this.deps.now() : new Date();
  }

  loadMembership(): Promise<boolean> {
    return this.membership.run(
      () => accountApi.getMyMembership(this.deps.api),
      () => GENERIC,
    );
  }

  loadOrders(): Promise<boolean> {
    return this.orders.run(() => accountApi.getMyOrders(this.deps.api), ordersError);
  }

  loadOrder(orderId: string): Promise<boolean> {
    return this.order.run(() => accountApi.getAccountOrder(this.deps.api, orderId), ordersError);
  }

  /** Upcoming visits: sessions starting from now on. */
  loadVisits(): Promise<boolean> {
    return this.visits.run(() => accountApi.getMySessions(this.deps.api, { from: this.now() }), ordersError);
  }

  /** One visit; a session that is not the user's (or has no valid tickets) is a 404. */
  loadVisit(sessionId: string): Promise<boolean> {
    return this.visit.run(async () => {
      const response = await accountApi.getMySessions(this.deps.api, { id: sessionId });
      if (response.order_session._data.length === 0) throw notFound();
      return response;
    }, ordersError);
  }

  /** Forgot password: always the same confirmation (404 and unknown addresses count as success). */
  requestPasswordReset(email: string): Promise<boolean> {
    return this.forgot.run(
      () => accountApi.requestPasswordReset(this.deps.api, email.trim()),
      (e) => resendError(e, true),
    );
  }

  /** Forgot membership id: the membership details by mail (resend with memberships_only; 404 is success). */
  requestMembershipDetails(email: string): Promise<boolean> {
    return this.forgot.run(
      async () => {
        await accountApi.resendOrders(this.deps.api, email.trim(), true);
      },
      (e) => resendError(e, true),
    );
  }

  resendTickets(email: string): Promise<boolean> {
    return this.resend.run(
      () => accountApi.resendOrders(this.deps.api, email.trim()),
      (e) => resendError(e, false),
    );
  }

  validateResetToken(token: string): Promise<boolean> {
    if (!token) {
      this.token.state = 'error';
      this.token.error = { key: 'recovery.reset.invalidLink' };
      return Promise.resolve(false);
    }
    return this.token.run(() => accountApi.validateResetToken(this.deps.api, token), resetError);
  }

  resetPassword(token: string, password: string, confirm: string): Promise<boolean> {
    return this.reset.run(() => accountApi.resetPassword(this.deps.api, token, password, confirm), resetError);
  }

  /**
   * Sign-up with a password (issue 13): POST user with the password makes the account, then `login` logs in with it. An
   * e-mail whose account has this very password answers 409 with the account's identity: the visitor proved it is
   * theirs, so they are simply logged in.
   */
  createAccount(details: SignUpDetails, login: (email: string, password: string) => Promise<void>): Promise<boolean> {
    const body = { ...details, first_name: details.first_name.trim(), last_name: details.last_name.trim(), email: details.email.trim() };
    return this.signUp.run(async () => {
      try {
        await createPurchaser(this.deps.api, { ...body, email_confirm: body.email_confirm.trim() });
      } catch (error) {
        const refusal = toApiError(error);
        if (!(refusal.status === 409 && typeof refusal._extra?.identity_id === 'string')) throw refusal;
      }
      await login(body.email, body.password);
    }, signUpError);
  }

  setEmailAddress(email: string, confirm: string): Promise<boolean> {
    const address = email.trim();
    return this.setEmail.run(
      () => accountApi.putMyEmail(this.deps.api, address, confirm.trim()),
      (e) => setEmailError(e, address),
    );
  }
}

/** A local 404: the session list answered, but without the asked session. */
function notFound(): ApiError {
  return new ApiError(404, 'not_found', 'Resource order_session not found.');
}

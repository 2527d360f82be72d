import { makeAutoObservable, runInAction } from 'mobx';
import { toApiError, type ApiError } from '../api/errors';
import type { LoginPayload } from '../api/auth';
import { type LoginMethod } from '../domain/auth-config';
import {
  fieldsFor,
  firstStep,
  inputValue,
  loginErrorMessage,
  loginPayload,
  OTP_HINT_AFTER_MS,
  otpAfterError,
  validateLoginFields,
  type FieldErrorKey,
  type LoginField,
  type LoginMessage,
  type LoginStep,
} from '../domain/login';

/** What the flow needs from the session store (a fake in unit tests). */
export interface LoginSession {
  login(payload: LoginPayload): Promise<void>;
  requestOtp(email: string): Promise<string>;
  verifyOtp(token: string, otp: string): Promise<void>;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface LoginFlowDeps {
  session: LoginSession;
  method: LoginMethod;
  /** config.auth.invalid_credentials_text */
  invalidCredentialsText?: string | null;
  cartId?: () => string | null;
  onSuccess?: () => void;
  timers?: Timers;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * One login form's state machine (spec sections 2, 4, 5, 8): steps email / password / otp_form /
 * otp_unavailable (or one `credentials` form), field rules, the OTP retry count, the 30 s hint and the
 * 5 s retry of not_available_yet. Created per form; dispose() stops its timers.
 */
export class LoginFlowStore {
  step: LoginStep;
  values: Partial<Record<LoginField, string>> = {};
  fieldErrors: Partial<Record<LoginField, FieldErrorKey>> = {};
  error: LoginMessage | null = null;
  /** Extra lines under the error (remaining attempts, must request a new link). */
  notes: LoginMessage[] = [];
  submitting = false;
  /** The OTP token the passcode is bound to (from request_otp or the one-time link). */
  token: string | null = null;
  otpAttempts = 0;
  needsNewToken = false;
  showCodeHint = false;
  /** The code of a one-time link that could not log in here: shown so it can be typed where it was asked for. */
  linkCode: string | null = null;
  done = false;

  private readonly deps: LoginFlowDeps;
  private readonly timers: Timers;
  private hintTimer: unknown = null;
  private retryTimer: unknown = null;

  constructor(deps: LoginFlowDeps) {
    this.deps = deps;
    this.timers = deps.timers ?? realTimers;
    this.step = firstStep(deps.method);
    makeAutoObservable<LoginFlowStore, 'deps' | 'timers' | 'hintTimer' | 'retryTimer'>(
      this,
      { deps: false, timers: false, hintTimer: false, retryTimer: false },
      { autoBind: true },
    );
  }

  get method(): LoginMethod {
    return this.deps.method;
  }

  get fields(): LoginField[] {
    return fieldsFor(this.deps.method, this.step);
  }

  /** otp_or_password offers both on the email step; otp offers the passcode only. */
  get offersPassword(): boolean {
    return this.deps.method === 'otp_or_password';
  }

  get email(): string {
    return (this.values.username ?? '').trim();
  }

  get canSubmitOtp(): boolean {
    return !this.submitting && !this.needsNewToken && this.token !== null;
  }

  setField(field: LoginField, raw: string): void {
    this.values[field] = inputValue(field, raw);
    if (this.fieldErrors[field]) delete this.fieldErrors[field];
  }

  /** Spec section 5: a field error stops the submit (the fields show why). */
  private validate(fields: LoginField[] = this.fields): boolean {
    this.fieldErrors = validateLoginFields(fields, this.values);
    return Object.keys(this.fieldErrors).length === 0;
  }

  private fail(error: unknown): ApiError {
    const apiError = toApiError(error);
    this.error = loginErrorMessage(apiError, this.deps.method, this.deps.invalidCredentialsText);
    return apiError;
  }

  private succeed(): void {
    this.done = true;
    this.dispose();
    this.deps.onSuccess?.();
  }

  private async run(action: () => Promise<void>): Promise<void> {
    this.submitting = true;
    this.error = null;
    this.notes = [];
    try {
      await action();
    } finally {
      runInAction(() => {
        this.submitting = false;
      });
    }
  }

  /** The single form of password and member-id modes, and the password step of otp_or_password. */
  async submitCredentials(): Promise<void> {
    if (this.submitting || !this.validate()) return;
    const method = this.step === 'password' ? 'password' : this.deps.method;
    const payload = loginPayload(method, this.values, this.deps.cartId?.()) as LoginPayload;
    await this.run(async () => {
      try {
        await this.deps.session.login(payload);
        runInAction(this.succeed);
      } catch (error) {
        runInAction(() => {
          this.fail(error);
        });
      }
    });
  }

  /** Email step: 'otp' mails a passcode and link and opens the code form; 'password' opens the password step. */
  async submitEmail(choice: 'otp' | 'password'): Promise<void> {
    if (this.submitting || !this.validate(['username'])) return;
    if (choice === 'password') {
      this.error = null;
      this.step = 'password';
      return;
    }
    await this.requestCode();
  }

  /** Asks for a passcode (again): a new token, the try count and the hint start over. */
  async requestCode(): Promise<void> {
    if (!this.validate(['username'])) {
      this.step = 'email';
      return;
    }
    await this.run(async () => {
      try {
        const token = await this.deps.session.requestOtp(this.email);
        runInAction(() => {
          this.token = token;
          this.otpAttempts = 0;
          this.needsNewToken = false;
          this.values.otp = '';
          this.step = 'otp_form';
          this.startHintTimer();
        });
      } catch (error) {
        runInAction(() => {
          this.fail(error);
        });
      }
    });
  }

  async submitOtp(): Promise<void> {
    if (!this.canSubmitOtp || !this.validate(['otp'])) return;
    this.clearRetry();
    await this.run(() => this.verify(this.token!, this.values.otp ?? ''));
  }

  private async verify(token: string, code: string): Promise<void> {
    try {
      await this.deps.session.verifyOtp(token, code);
      runInAction(this.succeed);
    } catch (error) {
      runInAction(() => this.onOtpError(error));
    }
  }

  private onOtpError(error: unknown): void {
    const apiError = toApiError(error);
    const outcome = otpAfterError({ attempts: this.otpAttempts, needsNewToken: this.needsNewToken }, apiError);
    if (outcome.kind === 'retry') {
      // The code was sent but is not usable yet: try again by itself (spec section 4).
      this.retryTimer = this.timers.setTimeout(() => {
        void this.submitOtp();
      }, outcome.afterMs);
      this.notes = [{ key: 'login.otp.retrying' }];
      return;
    }
    this.fail(apiError);
    if (outcome.kind === 'wrong') {
      this.otpAttempts = outcome.state.attempts;
      this.notes = [{ key: 'login.otp.remainingAttempts', values: { count: outcome.remaining } }];
    } else if (outcome.kind === 'dead') {
      this.otpAttempts = outcome.state.attempts;
      this.needsNewToken = true;
      this.notes = [{ key: outcome.reason === 'expired' ? 'login.otp.expired' : 'login.otp.mustRequestNewLink' }];
      this.stopHintTimer();
    }
  }

  /**
   * The one-time link (login path ?otp=...&token=...): logs in with its code. When this browser cannot keep
   * a session (cookies off), the otp_unavailable step shows the code to type where it was asked for.
   */
  async loginWithLink(link: { otp: string; token: string }, cookiesEnabled = true): Promise<void> {
    if (this.token === link.token) return; // the same link once (a re-render must not spend a second try)
    this.token = link.token;
    this.values.otp = link.otp;
    if (!cookiesEnabled) {
      this.linkCode = link.otp;
      this.step = 'otp_unavailable';
      this.error = { key: 'login.cookiesDisabled' };
      return;
    }
    this.step = 'otp_form';
    await this.run(() => this.verify(link.token, link.otp));
  }

  /** Back to the email step (password step and code form). */
  back(): void {
    this.clearTimers();
    this.step = 'email';
    this.error = null;
    this.notes = [];
    this.fieldErrors = {};
    this.values.password = '';
    this.values.otp = '';
    this.showCodeHint = false;
  }

  private startHintTimer(): void {
    this.stopHintTimer();
    this.showCodeHint = false;
    this.hintTimer = this.timers.setTimeout(
      () =>
        runInAction(() => {
          this.showCodeHint = true;
        }),
      OTP_HINT_AFTER_MS,
    );
  }

  private stopHintTimer(): void {
    if (this.hintTimer !== null) this.timers.clearTimeout(this.hintTimer);
    this.hintTimer = null;
  }

  private clearRetry(): void {
    if (this.retryTimer !== null) this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private clearTimers(): void {
    this.stopHintTimer();
    this.clearRetry();
  }

  dispose(): void {
    this.clearTimers();
  }
}

import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import * as authApi from '../api/auth';
import type { IdentityRow, LoginPayload, MembershipResponse, MembershipRow, UserResponse, UserRow } from '../api/auth';
import { toApiError } from '../api/errors';
import { activeMemberships, greetingName, readMarker, SESSION_POLL_MS } from '../domain/session';

export type { IdentityRow, LoginPayload, MembershipRow, UserRow } from '../api/auth';

export interface SessionStoreDeps {
  api: ApiClient;
  now?: () => Date;
  /** Seller slug sent as `state` with OTP requests (the mailed link returns to this seller). */
  sellerSlug?: string;
  /** The browser's `document.cookie` (readable marker only; the session cookie is httpOnly). Null: no cookies. */
  readCookies?: () => string | null;
  /** The stored cart id, sent with a login (spec section 3 payload cart_id) so the guest cart becomes the user's. */
  cartId?: () => string | null;
  /** Spec section 4: after login the cart is re-fetched (CartStore.afterLogin). */
  onLogin?: () => Promise<void> | void;
  /** Logged out here or in another tab. */
  onLogout?: () => void;
  /** A staff preview of a logged-in visitor (issue 18): the server answers for a visitor this browser holds no session
   *  marker of, so the store loads it at startup and the cookie check leaves it be. */
  assumeSession?: boolean;
}

export type SessionStatus = 'unknown' | 'loading' | 'ready';

/** Who is logged in: the user, their identity and memberships; login, OTP and logout actions. */
export class SessionStore {
  user: UserRow | null = null;
  identity: IdentityRow | null = null;
  memberships: MembershipRow[] = [];
  membershipTables: MembershipResponse | null = null;
  status: SessionStatus = 'unknown';
  /** The session ended in another tab (or expired) while this one showed it: the page says so. */
  endedElsewhere = false;

  private readonly deps: SessionStoreDeps;
  /** The page opened with a session's marker (or a staff preview of a member): someone may be logged in. */
  private readonly markedAtStart: boolean;
  private lastMarker: string | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private started: Promise<void> = Promise.resolve();

  constructor(deps: SessionStoreDeps) {
    this.deps = deps;
    this.lastMarker = this.marker();
    this.markedAtStart = this.lastMarker !== null || deps.assumeSession === true;
    makeAutoObservable<SessionStore, 'deps' | 'markedAtStart' | 'lastMarker' | 'timer' | 'started'>(
      this,
      { deps: false, markedAtStart: false, lastMarker: false, timer: false, started: false },
      { autoBind: true },
    );
  }

  get isLoggedIn(): boolean {
    return this.user !== null;
  }

  /**
   * Someone may be logged in (the page opened with a session's marker) and who is not known yet: the header shows
   * neither the login links nor the member menu until it is, rather than 'Log in' to a member. The server draws the
   * same from the page request's cookies (src/entry-server.tsx), so a drawn page and its hydration agree.
   */
  get awaitingMember(): boolean {
    return this.markedAtStart && this.status !== 'ready' && this.user === null;
  }

  /** A membership whose term includes today. */
  get isActiveMember(): boolean {
    return activeMemberships(this.memberships, this.now()).length > 0;
  }

  get hasMembership(): boolean {
    return this.memberships.length > 0;
  }

  /** First name for the header greeting, else the e-mail address, else ''. */
  get greetingName(): string {
    return greetingName(this.identity, this.user);
  }

  private now(): Date {
    return this.deps.now ? this.deps.now() : new Date();
  }

  private marker(): string | null {
    return readMarker(this.deps.readCookies ? this.deps.readCookies() : null);
  }

  /**
   * Startup (spec section 4): the member is loaded when this browser has a session. The marker cookie says so;
   * an API on another origin cannot set a marker we can read, so then we ask (`alwaysAsk`).
   */
  start(alwaysAsk = false): Promise<void> {
    this.lastMarker = this.marker();
    if (this.lastMarker || alwaysAsk || this.deps.assumeSession) this.started = this.load().catch(() => undefined);
    else this.status = 'ready';
    return this.started;
  }

  /** Resolves once the startup load is over (route guards that depend on the member wait for it). */
  whenReady(): Promise<void> {
    return this.started;
  }

  /** GET my/user (and my/membership); a 401 means logged out. Other failures leave the state as it was. */
  async load(): Promise<void> {
    this.status = 'loading';
    try {
      const response = await authApi.getMyUser(this.deps.api);
      this.accept(response);
      await this.loadMemberships();
    } catch (error) {
      const apiError = toApiError(error);
      runInAction(() => {
        if (apiError.status === 401 || apiError.status === 403) this.clearLocal();
        this.status = 'ready';
      });
      if (apiError.status !== 401 && apiError.status !== 403) throw apiError;
    }
  }

  async loadMemberships(): Promise<void> {
    if (!this.user) return;
    try {
      const tables = await authApi.getMyMemberships(this.deps.api);
      runInAction(() => {
        this.membershipTables = tables;
        this.memberships = tables.membership?._data ?? [];
      });
    } catch {
      // Memberships only refine what is shown; the login itself stands.
      runInAction(() => {
        this.memberships = [];
      });
    }
  }

  /** POST login with the mode's fields. Throws the ApiError (spec section 8) for the form to show. */
  async login(payload: LoginPayload): Promise<void> {
    const cartId = payload.cart_id ?? this.deps.cartId?.() ?? undefined;
    this.accept(await authApi.postLogin(this.deps.api, { ...payload, ...(cartId ? { cart_id: cartId } : {}) }));
    await this.afterLogin();
  }

  /** POST login/request_otp: returns the token the passcode is bound to. */
  async requestOtp(email: string): Promise<string> {
    const { token } = await authApi.requestOtp(this.deps.api, email.trim(), this.deps.sellerSlug);
    return token;
  }

  /** OTP verify (typed passcode or one-time link). Throws otp_incorrect / not_authorized / ... as ApiError. */
  async verifyOtp(token: string, otp: string): Promise<void> {
    this.accept(await authApi.verifyOtp(this.deps.api, token, otp, this.deps.cartId?.()));
    await this.afterLogin();
  }

  /**
   * POST logout; the local state is cleared even when the call fails (the cookie may be gone already). Answers the
   * identity provider's logout address when the session began there (single sign-on): the caller sends the browser on.
   */
  async logout(): Promise<string | null> {
    let endSessionUrl: string | null = null;
    try {
      endSessionUrl = await authApi.postLogout(this.deps.api);
    } catch {
      // Offline or already logged out: forgetting the user here is still right.
    }
    this.lastMarker = this.marker();
    this.clearLocal();
    this.deps.onLogout?.();
    return endSessionUrl;
  }

  /**
   * Spec section 4 "Session cookie check each 1 s": the server keeps a readable, secret-free marker cookie
   * beside the httpOnly session cookie. When it changes (login or logout in another tab) the user is re-read.
   */
  checkSession(): void {
    if (this.deps.assumeSession) return;
    const marker = this.marker();
    if (marker === this.lastMarker) return;
    this.lastMarker = marker;
    if (!marker) {
      if (this.isLoggedIn) {
        this.clearLocal();
        this.endedElsewhere = true;
        this.deps.onLogout?.();
      }
      return;
    }
    const wasLoggedIn = this.isLoggedIn;
    void this.load()
      .then(() => {
        if (!wasLoggedIn && this.isLoggedIn) void this.deps.onLogin?.();
      })
      .catch(() => undefined);
  }

  startSessionCheck(intervalMs = SESSION_POLL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(this.checkSession, intervalMs);
  }

  stopSessionCheck(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async afterLogin(): Promise<void> {
    this.lastMarker = this.marker();
    await this.loadMemberships();
    await this.deps.onLogin?.();
  }

  dismissEndedElsewhere(): void {
    this.endedElsewhere = false;
  }

  private accept(response: UserResponse): void {
    this.endedElsewhere = false;
    this.user = response.user?._data?.[0] ?? null;
    this.identity = response.identity?._data?.[0] ?? null;
    this.status = 'ready';
  }

  clearLocal(): void {
    this.user = null;
    this.identity = null;
    this.memberships = [];
    this.membershipTables = null;
  }
}

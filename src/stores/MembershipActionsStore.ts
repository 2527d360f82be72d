import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import type { MembershipRow } from '../contract/account';
import type { GiftCodeRow } from '../contract/membership';
import * as membershipApi from '../api/membership';
import { toApiError, type ApiError } from '../api/errors';
import { giftCodeState, isGiftCodeShape } from '../domain/membership';

/** The calls the redeem and cancel-auto-renew screens make; tests pass fakes. */
export interface MembershipActionsApi {
  getGiftCode(code: string): Promise<GiftCodeRow>;
  redeem(code: string): Promise<MembershipRow | null>;
  cancelAutoRenew(orderId: string): Promise<MembershipRow | null>;
}

export function membershipActionsApi(api: ApiClient): MembershipActionsApi {
  return {
    getGiftCode: (code) => membershipApi.getGiftCode(api, code),
    redeem: async (code) => (await membershipApi.redeemGiftCode(api, code)).membership._data[0] ?? null,
    cancelAutoRenew: async (id) => (await membershipApi.cancelAutoRenew(api, id)).membership._data[0] ?? null,
  };
}

/** Spec section 8: the gift code's refusals in the spec's words. */
export function giftCodeMessage(error: ApiError): string {
  if (error._code === 'gift_code_expired') return 'membership.errors.codeExpired';
  if (error._code === 'gift_code_exhausted') return 'membership.errors.codeRedeemed';
  if (error._code === 'not_found' || error.status === 404 || error._code === 'validation_failed') return 'membership.errors.codeInvalid';
  if (error.status === 401) return 'membership.redeem.logInToRedeem';
  return 'app.unexpectedError';
}

export interface RedeemStoreDeps {
  api: MembershipActionsApi;
  initialCode?: string | null;
  now?: () => Date;
  /** after a redeem: the session reads the user's memberships again */
  onRedeemed?: () => Promise<void> | void;
}

/** /membership/redeem (spec sections 2, 5): a 10-character code, looked up, then redeemed by the logged-in user. */
export class RedeemStore {
  code: string;
  state: 'idle' | 'checking' | 'valid' | 'redeeming' | 'redeemed' = 'idle';
  /** i18n key of the refusal */
  message: string | null = null;
  membership: MembershipRow | null = null;
  private readonly deps: RedeemStoreDeps;

  constructor(deps: RedeemStoreDeps) {
    this.deps = deps;
    this.code = (deps.initialCode ?? '').trim();
    makeAutoObservable<RedeemStore, 'deps'>(this, { deps: false }, { autoBind: true });
  }

  setCode(code: string): void {
    this.code = code;
    this.message = null;
    if (this.state === 'valid') this.state = 'idle';
  }

  /** Spec section 5: exactly 10 characters; then its validity and whether it was redeemed. True when it can be redeemed. */
  async check(): Promise<boolean> {
    const code = this.code.trim();
    this.message = null;
    if (!isGiftCodeShape(code)) {
      this.message = 'membership.errors.codeInvalid';
      return false;
    }
    this.state = 'checking';
    try {
      const row = await this.deps.api.getGiftCode(code);
      const state = giftCodeState(row, this.deps.now ? this.deps.now() : new Date());
      runInAction(() => {
        this.state = state === 'valid' ? 'valid' : 'idle';
        if (state === 'expired') this.message = 'membership.errors.codeExpired';
        if (state === 'exhausted') this.message = 'membership.errors.codeRedeemed';
      });
      return state === 'valid';
    } catch (error) {
      runInAction(() => {
        this.state = 'idle';
        this.message = giftCodeMessage(toApiError(error));
      });
      return false;
    }
  }

  /** Redeems the checked code for the logged-in user: the membership is booked at no charge. */
  async redeem(): Promise<boolean> {
    if (this.state === 'redeeming') return false;
    if (this.state !== 'valid' && !(await this.check())) return false;
    this.state = 'redeeming';
    try {
      const membership = await this.deps.api.redeem(this.code.trim());
      await this.deps.onRedeemed?.();
      runInAction(() => {
        this.membership = membership;
        this.state = 'redeemed';
      });
      return true;
    } catch (error) {
      runInAction(() => {
        this.state = 'idle';
        this.message = giftCodeMessage(toApiError(error));
      });
      return false;
    }
  }
}

/** /manage/{ticketOrderId}/cancel-auto-renew (spec section 2): confirm, cancel, show the outcome. */
export class CancelAutoRenewStore {
  state: 'confirm' | 'working' | 'done' | 'error' = 'confirm';
  message: string | null = null;
  membership: MembershipRow | null = null;
  private readonly api: MembershipActionsApi;
  private readonly orderId: string;
  private readonly onCancelled?: () => Promise<void> | void;

  constructor(api: MembershipActionsApi, orderId: string, onCancelled?: () => Promise<void> | void) {
    this.api = api;
    this.orderId = orderId;
    this.onCancelled = onCancelled;
    makeAutoObservable<CancelAutoRenewStore, 'api' | 'orderId' | 'onCancelled'>(
      this,
      { api: false, orderId: false, onCancelled: false },
      { autoBind: true },
    );
  }

  async confirm(): Promise<void> {
    if (this.state === 'working') return;
    this.state = 'working';
    this.message = null;
    try {
      const membership = await this.api.cancelAutoRenew(this.orderId);
      await this.onCancelled?.();
      runInAction(() => {
        this.membership = membership;
        this.state = 'done';
      });
    } catch (error) {
      const e = toApiError(error);
      runInAction(() => {
        this.state = 'error';
        this.message =
          e._code === 'auto_renew_not_scheduled' || e.status === 404
            ? 'membership.errors.autoRenewNotEnrolled'
            : e.status === 401
              ? 'membership.errors.autoRenewNotAuthenticated'
              : 'app.unexpectedError';
      });
    }
  }
}

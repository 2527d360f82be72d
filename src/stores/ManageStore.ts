import { makeAutoObservable, runInAction } from 'mobx';
import type { AxiosInstance } from 'axios';
import * as ordersApi from '../api/orders';
import { deleteCart } from '../api/cart';
import { toApiError, type ApiError } from '../api/errors';
import type { EditRow, SelfEditAnswer, SelfEditRow } from '../contract/self-edit';
import { errorMessageKey } from '../domain/error-messages';
import { decimalToMinor } from '../domain/pricing';
import { editConfirmStep } from '../domain/self-edit';

/**
 * Spec section 8 for the manage screen: a missing order reads 'We could not find that order.'; a refusal because the
 * visitor is logged in reads 'Please log-out to edit your tickets'; the self-service codes read their table's message
 * ('You must contact us to cancel this order.', 'No valid tickets found on this order.'); anything else the generic one.
 */
export function manageMessage(error: ApiError): string {
  if (error.status === 404 && error._code === 'not_found') return 'manage.notFound';
  if (error._code === 'order_not_self_editable' && error._extra?.reason === 'logged_in') return 'manage.logOut';
  if (error._code === 'cart_expired') return 'manage.editExpired';
  if (['order_not_self_editable', 'tickets_too_old', 'ticket_state_incorrect'].includes(error._code)) return errorMessageKey(error);
  return 'manage.loadError';
}

export interface ManageStoreDeps {
  api: AxiosInstance;
  orderId: string;
  /** the signature of the e-mail's manage link, when the visitor came by it */
  signature: string | null;
  /** the seller's currency: whether a card can pay an edit's difference (spec section 9's card amounts) */
  currency: string;
}

/**
 * The manage screen (/manage/{id}): the order, whether its tickets can be cancelled (and what that refunds), and, in
 * edit-order mode, this browser's unsaved changes (spec section 4: an edit cart with its expiry) to confirm or discard.
 */
export class ManageStore {
  state: 'loading' | 'ready' | 'error' = 'loading';
  answer: SelfEditAnswer | null = null;
  /** i18n key of what failed to load */
  loadMessage: string | null = null;
  cancelState: 'idle' | 'confirming' | 'working' | 'done' | 'error' = 'idle';
  cancelMessage: string | null = null;
  /** What the cancellation just gave back, minor units (0 for free tickets). */
  refunded = 0;
  editState: 'idle' | 'working' | 'saved' | 'discarded' = 'idle';
  /** i18n key of why confirming or discarding the edit failed */
  editMessage: string | null = null;
  private live = false;
  private readonly deps: ManageStoreDeps;

  constructor(deps: ManageStoreDeps) {
    this.deps = deps;
    makeAutoObservable<ManageStore, 'deps' | 'live'>(this, { deps: false, live: false }, { autoBind: true });
  }

  start(): void {
    this.live = true;
    void this.load();
  }

  dispose(): void {
    this.live = false;
  }

  get row(): SelfEditRow | null {
    return this.answer?.self_edit._data[0] ?? null;
  }

  get orderNumber(): string | null {
    return this.answer?.ticket_order._data[0]?.order_number ?? null;
  }

  get cancelableIds(): string[] {
    return this.row?.cancelable_ticket_ids ?? [];
  }

  /** What cancelling the cancelable tickets gives back, minor units. */
  get refundAmount(): number {
    return decimalToMinor(this.row?.refund_amount);
  }

  /** This browser's unsaved changes, or null. */
  get edit(): EditRow | null {
    return this.row?.edit ?? null;
  }

  get editOutstanding(): number {
    return decimalToMinor(this.edit?.outstanding);
  }

  async load(): Promise<void> {
    try {
      const answer = await ordersApi.getSelfEdit(this.deps.api, this.deps.orderId, this.deps.signature);
      runInAction(() => {
        if (!this.live) return;
        this.answer = answer;
        this.state = 'ready';
      });
    } catch (err) {
      runInAction(() => {
        this.loadMessage = manageMessage(toApiError(err));
        this.state = 'error';
      });
    }
  }

  askToCancel(): void {
    this.cancelState = 'confirming';
    this.cancelMessage = null;
  }

  keepTickets(): void {
    this.cancelState = 'idle';
  }

  async confirmCancel(): Promise<void> {
    const ids = this.cancelableIds;
    if (ids.length === 0 || this.cancelState === 'working') return;
    const refund = this.refundAmount;
    this.cancelState = 'working';
    try {
      const answer = await ordersApi.cancelTickets(this.deps.api, this.deps.orderId, ids, this.deps.signature);
      runInAction(() => {
        this.answer = answer;
        this.refunded = refund;
        this.cancelState = 'done';
      });
    } catch (err) {
      runInAction(() => {
        this.cancelMessage = manageMessage(toApiError(err));
        this.cancelState = 'error';
      });
    }
  }

  /** The visitor came back from paying the difference (/manage/{id}/confirm): the changes are saved. */
  markSaved(): void {
    this.editState = 'saved';
  }

  /**
   * Confirm (spec section 4): nothing outstanding checks out free here (and the update is mailed); something
   * outstanding that a card can pay goes to the checkout ('pay': the screen navigates); else payment-not-supported.
   */
  async confirmEdit(): Promise<'pay' | null> {
    const edit = this.edit;
    if (!edit || this.editState === 'working') return null;
    const step = editConfirmStep(this.editOutstanding, this.deps.currency);
    this.editMessage = null;
    if (step === 'pay') return 'pay';
    if (step === 'unsupported') {
      this.editMessage = 'errors.paymentNotSupported';
      return null;
    }
    this.editState = 'working';
    try {
      await ordersApi.confirmFreeEdit(this.deps.api, edit.cart_id);
      await this.load();
      runInAction(() => {
        this.editState = 'saved';
      });
    } catch (err) {
      await this.load();
      runInAction(() => {
        this.editMessage = manageMessage(toApiError(err));
        this.editState = 'idle';
      });
    }
    return null;
  }

  /** Cancel (spec section 4): the edit cart is discarded, its new places given back; the order stays as it was. */
  async discardEdit(): Promise<void> {
    const edit = this.edit;
    if (!edit || this.editState === 'working') return;
    this.editState = 'working';
    this.editMessage = null;
    try {
      await deleteCart(this.deps.api, edit.cart_id);
    } catch (err) {
      // Gone already (its hold ran out) is as good as discarded.
      const error = toApiError(err);
      if (error.status !== 404 && error._code !== 'cart_expired')
        runInAction(() => {
          this.editMessage = manageMessage(error);
        });
    }
    await this.load();
    runInAction(() => {
      this.editState = this.editMessage ? 'idle' : 'discarded';
    });
  }
}

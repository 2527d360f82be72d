import { makeAutoObservable, runInAction } from 'mobx';
import type { AxiosInstance } from 'axios';
import * as ordersApi from '../api/orders';
import { toApiError, type ApiError } from '../api/errors';
import type { SelfEditAnswer, SelfEditRow } from '../contract/self-edit';
import { errorMessageKey } from '../domain/error-messages';

/**
 * Spec section 8 for the manage screen: a missing order reads 'We could not find that order.'; a refusal because the
 * visitor is logged in reads 'Please log-out to edit your tickets'; the self-service codes read their table's message
 * ('You must contact us to cancel this order.', 'No valid tickets found on this order.'); anything else the generic one.
 */
export function manageMessage(error: ApiError): string {
  if (error.status === 404 && error._code === 'not_found') return 'manage.notFound';
  if (error._code === 'order_not_self_editable' && error._extra?.reason === 'logged_in') return 'manage.logOut';
  if (['order_not_self_editable', 'tickets_too_old', 'ticket_state_incorrect'].includes(error._code)) return errorMessageKey(error);
  return 'manage.loadError';
}

export interface ManageStoreDeps {
  api: AxiosInstance;
  orderId: string;
  /** the signature of the e-mail's manage link, when the visitor came by it */
  signature: string | null;
}

/** The manage screen (/manage/{id}): the order, whether its free tickets can be cancelled, and the cancellation. */
export class ManageStore {
  state: 'loading' | 'ready' | 'error' = 'loading';
  answer: SelfEditAnswer | null = null;
  /** i18n key of what failed to load */
  loadMessage: string | null = null;
  cancelState: 'idle' | 'confirming' | 'working' | 'done' | 'error' = 'idle';
  cancelMessage: string | null = null;
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

  async load(): Promise<void> {
    this.state = 'loading';
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
    this.cancelState = 'working';
    try {
      const answer = await ordersApi.cancelTickets(this.deps.api, this.deps.orderId, ids, this.deps.signature);
      runInAction(() => {
        this.answer = answer;
        this.cancelState = 'done';
      });
    } catch (err) {
      runInAction(() => {
        this.cancelMessage = manageMessage(toApiError(err));
        this.cancelState = 'error';
      });
    }
  }
}

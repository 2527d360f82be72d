import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import { listSavedMethods, removeSavedMethod } from '../api/saved-payment';
import type { SavedPaymentMethodRow } from '../contract/saved-payment';

export type SavedCardsState = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The logged-in user's saved cards (issue 22), for the checkout (offered first) and the account area (removed
 * there). A screen store: made for the screen that shows them, loaded when it mounts.
 */
export class SavedCardsStore {
  items: SavedPaymentMethodRow[] = [];
  state: SavedCardsState = 'idle';
  /** The card being removed, and whether the last removal failed. */
  removingId: string | null = null;
  removeFailed = false;

  constructor(private readonly deps: { api: ApiClient; enabled: boolean }) {
    makeAutoObservable<SavedCardsStore, 'deps'>(this, { deps: false }, { autoBind: true });
  }

  start(): void {
    if (this.deps.enabled) void this.load();
  }

  async load(): Promise<void> {
    this.state = 'loading';
    try {
      const items = await listSavedMethods(this.deps.api);
      runInAction(() => {
        this.items = items;
        this.state = 'ready';
      });
    } catch {
      runInAction(() => {
        this.items = [];
        this.state = 'error';
      });
    }
  }

  /** The cards a gateway can charge: the checkout offers only its cart's gateway's cards. */
  forGateway(gatewayId: string): SavedPaymentMethodRow[] {
    return this.items.filter((m) => m.gateway_id === gatewayId);
  }

  async remove(id: string): Promise<boolean> {
    this.removingId = id;
    this.removeFailed = false;
    try {
      await removeSavedMethod(this.deps.api, id);
      runInAction(() => {
        this.items = this.items.filter((m) => m.id !== id);
      });
      return true;
    } catch {
      runInAction(() => {
        this.removeFailed = true;
      });
      return false;
    } finally {
      runInAction(() => {
        this.removingId = null;
      });
    }
  }
}

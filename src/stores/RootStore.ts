import type { AxiosInstance } from 'axios';
import type { SellerConfig } from '../api/config';
import type { DeploymentConfig } from '../api/types';
import type { Role } from '../domain/content-blocks';
import { CartStore, type KeyValueStorage } from './CartStore';
import { CheckoutStore } from './CheckoutStore';
import { ConfigStore } from './ConfigStore';
import { EventsStore } from './EventsStore';
import { UiStore } from './UiStore';

export interface RootStoreDeps {
  api: AxiosInstance;
  deployment: DeploymentConfig;
  sellerConfig: SellerConfig;
  sellerPrefix: string | null;
  now?: () => Date;
  /** Where the cart id is kept across reloads; localStorage in the browser (null: not kept). */
  storage?: KeyValueStorage | null;
}

function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null; // storage blocked (private mode, cookies off): the cart lives for this page only
  }
}

/** Creates every domain store once; components reach them through useStores(). */
export class RootStore {
  readonly api: AxiosInstance;
  readonly config: ConfigStore;
  readonly ui: UiStore;
  readonly cart: CartStore;
  readonly events: EventsStore;
  readonly checkout: CheckoutStore;

  constructor(deps: RootStoreDeps) {
    this.api = deps.api;
    const now = deps.now ?? (() => new Date());
    this.config = new ConfigStore(deps.deployment, deps.sellerConfig, deps.sellerPrefix);
    this.ui = new UiStore();
    const storage = deps.storage === undefined ? browserStorage() : deps.storage;
    this.cart = new CartStore({
      api: deps.api, storage, sellerKey: this.config.seller.id,
      onExpired: () => this.ui.openModal('cart-expiry'),
    });
    this.events = new EventsStore({ api: deps.api, now, timezone: () => this.config.timezone });
    this.checkout = new CheckoutStore({ api: deps.api, cart: this.cart });
    if (typeof window !== 'undefined' && deps.storage === undefined) {
      // Another tab reserved, checked out or cleared: follow its cart.
      window.addEventListener('storage', (event) => {
        if (event.key === this.cart.storageKey) this.cart.onStorageChange(event.newValue);
      });
      void this.cart.load();
    }
  }

  /** Who content blocks are chosen for. There are no accounts yet, so every visitor is anonymous; the
   *  session store will answer this once login exists. */
  get role(): Role {
    return 'anonymous';
  }

  /** Guard 3 reads this; memberships arrive with accounts. */
  get isActiveMember(): boolean {
    return false;
  }
}

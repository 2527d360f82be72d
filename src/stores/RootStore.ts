import type { AxiosInstance } from 'axios';
import type { SellerConfig } from '../api/config';
import type { DeploymentConfig } from '../api/types';
import type { Role } from '../domain/content-blocks';
import { CartStore } from './CartStore';
import { ConfigStore } from './ConfigStore';
import { EventsStore } from './EventsStore';
import { UiStore } from './UiStore';

export interface RootStoreDeps {
  api: AxiosInstance;
  deployment: DeploymentConfig;
  sellerConfig: SellerConfig;
  sellerPrefix: string | null;
  now?: () => Date;
}

/** Creates every domain store once; components reach them through useStores(). */
export class RootStore {
  readonly api: AxiosInstance;
  readonly config: ConfigStore;
  readonly ui: UiStore;
  readonly cart: CartStore;
  readonly events: EventsStore;

  constructor(deps: RootStoreDeps) {
    this.api = deps.api;
    const now = deps.now ?? (() => new Date());
    this.config = new ConfigStore(deps.deployment, deps.sellerConfig, deps.sellerPrefix);
    this.ui = new UiStore();
    this.cart = new CartStore();
    this.events = new EventsStore({ api: deps.api, now, timezone: () => this.config.timezone });
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

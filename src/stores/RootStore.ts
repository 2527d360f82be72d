import { observable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import type { SellerConfig } from '../api/config';
import type { DeploymentConfig } from '../api/types';
import type { Role } from '../domain/content-blocks';
import type { StaffAnswer } from '../api/staff';
import { CartStore, type KeyValueStorage } from './CartStore';
import { ConfigStore } from './ConfigStore';
import { EventsStore } from './EventsStore';
import { MembershipStore } from './MembershipStore';
import { SessionStore } from './SessionStore';
import { UiStore } from './UiStore';

export interface RootStoreDeps {
  api: ApiClient;
  deployment: DeploymentConfig;
  sellerConfig: SellerConfig;
  sellerPrefix: string | null;
  now?: () => Date;
  /** Where the cart id is kept across reloads; localStorage in the browser (null: not kept). */
  storage?: KeyValueStorage | null;
  /** `document.cookie` reader for the session marker (tests pass their own; null: no cookies). */
  readCookies?: () => string | null;
  /** The logged-in member of staff and their preview (issue 18; src/app/staff-boot.ts), or none. */
  staff?: StaffAnswer | null;
  /** For staff: every content block's name, the set a preview chooses from. */
  staffBlockNames?: string[];
  /** The browser's cart and session start later (startBrowser): a page the server drew is first hydrated as the server
   *  drew it, with no cart and nobody logged in (src/main.tsx). */
  deferBrowserStart?: boolean;
}

function browserCookies(): string | null {
  try {
    return typeof document !== 'undefined' ? document.cookie : null;
  } catch {
    return null;
  }
}

/** localStorage, or null where the browser blocks it (or outside a browser). */
export function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null; // storage blocked (private mode, cookies off): the cart lives for this page only
  }
}

/** Creates every domain store once; components reach them through useStores(). */
export class RootStore {
  readonly api: ApiClient;
  readonly config: ConfigStore;
  readonly ui: UiStore;
  readonly cart: CartStore;
  readonly events: EventsStore;
  readonly session: SessionStore;
  /** The current member's membership, benefits, member prices and caps (spec sections 5 and 6). */
  readonly membership: MembershipStore;
  /** The member of staff looking (issue 18): null for every shopper. */
  readonly staff: StaffAnswer | null;
  readonly staffBlockNames: string[];
  /** The clock every store reads (the server's, pinned in tests, when it draws a screen: src/entry-server.tsx). */
  readonly now: () => Date;

  constructor(deps: RootStoreDeps) {
    this.api = deps.api;
    this.staff = deps.staff ?? null;
    this.staffBlockNames = deps.staffBlockNames ?? [];
    const now = deps.now ?? (() => new Date());
    this.now = now;
    this.config = new ConfigStore(deps.deployment, deps.sellerConfig, deps.sellerPrefix);
    this.ui = new UiStore();
    const storage = deps.storage === undefined ? browserStorage() : deps.storage;
    this.cart = new CartStore({
      api: deps.api,
      storage,
      sellerKey: this.config.seller.id,
      onExpired: () => this.ui.openModal('cart-expiry'),
      extendTimer: () => this.config.flags.extend_timer === true,
      counting: () => this.alive,
      defaultCodes: () => this.config.storefront.default_promo_codes ?? [],
    });
    this.events = new EventsStore({ api: deps.api, now, timezone: () => this.config.timezone, isMember: () => this.isActiveMember });
    this.session = new SessionStore({
      api: deps.api,
      now,
      sellerSlug: this.config.seller.slug,
      cartId: () => this.cart.cartId,
      readCookies: deps.readCookies ?? (deps.storage === undefined ? browserCookies : () => null),
      assumeSession: !!deps.staff?.preview && deps.staff.preview.role !== 'anonymous',
      // Spec section 4: after login the cart is re-fetched and kept, cleared or deleted.
      onLogin: () => this.cart.afterLogin(),
      // A cart filled while logged in is the user's: once logged out this browser can no longer reach it.
      onLogout: () => {
        if (!this.cart.ownedByPublicIdentity) this.cart.clear();
      },
    });
    this.membership = new MembershipStore({ session: this.session, cart: this.cart, now });
    this.startsInBrowser = typeof window !== 'undefined' && deps.storage === undefined;
    if (!deps.deferBrowserStart) this.startBrowser();
  }

  private readonly startsInBrowser: boolean;
  private browserStarted = false;
  private readonly aliveBox = observable.box(false);

  /**
   * The page is the client's: its controls work (src/app/AppTree.tsx holds them until then). False on the server
   * (src/entry-server.tsx) and while a page the server drew hydrates; true once the browser has started.
   */
  get alive(): boolean {
    return this.aliveBox.get();
  }

  /**
   * In the browser (once): follow other tabs' cart, load the kept cart, and the session with its cookie check. A page
   * the server drew calls it once its screen has hydrated (src/app/AppShell.tsx), and it is alive from then.
   */
  startBrowser(): void {
    if (typeof window !== 'undefined') runInAction(() => this.aliveBox.set(true));
    if (!this.startsInBrowser || this.browserStarted) return;
    this.browserStarted = true;
    // Another tab reserved, checked out or cleared: follow its cart.
    window.addEventListener('storage', (event) => {
      if (event.key === this.cart.storageKey) this.cart.onStorageChange(event.newValue);
    });
    void this.cart.startOnce();
    // Startup (spec section 4): the member is loaded when a session exists; then the cookie check runs each 1 s.
    void this.session.start(/^https?:\/\//i.test(this.config.deployment.apiBaseUrl));
    this.session.startSessionCheck();
  }

  /**
   * This root with an order's edit cart in place of the shopper's cart (issue 17): /manage/{orderId}/confirm pays an
   * edit's difference through the same checkout, and the shopper's own cart (kept in storage) stays as it is. The
   * edit cart is not kept across reloads; the manage screen finds it again.
   */
  forEditCart(onExpired: () => void): RootStore {
    const cart = new CartStore({
      api: this.api,
      storage: null,
      sellerKey: this.config.seller.id,
      onExpired,
      extendTimer: () => this.config.flags.extend_timer === true,
    });
    return Object.create(this, { cart: { value: cart } }) as RootStore;
  }

  /** Who content blocks are chosen for. */
  get role(): Role {
    if (!this.session.isLoggedIn) return 'anonymous';
    return this.session.isActiveMember ? 'member' : 'logged_in';
  }

  /** Guard 3 reads this: a membership whose term includes today. */
  get isActiveMember(): boolean {
    return this.session.isActiveMember;
  }
}

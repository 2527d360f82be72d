import { makeAutoObservable, runInAction } from 'mobx';
import type { ApiClient } from '../api/http';
import * as cartApi from '../api/cart';
import type { CartItemRow, CartResponse, CartRow, ReserveLine } from '../api/cart';
import { toApiError, type ApiError } from '../api/errors';
import { PRIMED_READS_TTL_MS } from '../api/primed-reads';
import { CART_RELOAD_THRESHOLD_SECONDS, isLocallyExpired, localExpiry, shouldOfferExtension } from '../domain/cart-rules';

export type { ReserveLine } from '../api/cart';
/** A cart line as the widget shows it (spec section 3, "Cart item (display)"), grouped by event and session. */
export type CartItem = CartItemRow;

/** The small part of Web Storage the cart uses (localStorage in the browser, a Map in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface CartStoreDeps {
  api: ApiClient;
  storage: KeyValueStorage | null;
  /** The seller the cart belongs to: one stored cart per seller. */
  sellerKey: string;
  now?: () => number;
  /** The extend-timer feature flag (src/domain/flags.ts): off, no extension is offered. */
  extendTimer?: () => boolean;
  /** Called when the cart ran out of time (opens the cart-expiry modal). */
  onExpired?: () => void;
  /** Whether the countdown runs on the clock (secondsLeft): not while the server draws a page, nor while the browser
   *  hydrates it, since their clocks are seconds apart and the two drawings must be the same; until then it stands at
   *  the hold the cart's answer gave (the same answer on both sides). From when the page is alive (RootStore.alive);
   *  without it, always. */
  counting?: () => boolean;
  /** The seller's default promo codes (config default_promo_codes): the first goes on every new cart (spec section 5). */
  defaultCodes?: () => readonly string[];
}

/** Refusals that mean the stored cart itself can no longer take tickets (not that the tickets were refused). */
function endsTheCart(error: ApiError): boolean {
  if (['cart_expired', 'cart_booked', 'cart_not_pending', 'cart_access_denied'].includes(error._code)) return true;
  return error._code === 'not_found' && error._extra?.resource === 'cart';
}

/** The shopper's cart: the server's cart row, the local expiry clock, and the changes the storefront makes. */
export class CartStore {
  cartId: string | null = null;
  cart: CartRow | null = null;
  /** ms timestamp: server expires_in minus the 5 s margin, counted from the last answer (spec section 4). */
  localExpiry: number | null = null;
  nowMs: number;
  /** ms timestamp of the last answer, from which localExpiry counts. */
  answeredMs = 0;
  declinedExtension = false;
  busy = false;
  error: ApiError | null = null;
  /** The item the shopper asked to remove, waiting for confirmation. */
  pendingRemoval: CartItem | null = null;
  /** The shopper's last add or removal, for the seller's analytics (src/analytics/start.tsx reacts to it). */
  lastChange: { added: boolean; before: CartRow | null; after: CartRow | null } | null = null;
  /** Orders of a stored cart that turned out to be checked out already (checkout sends the shopper there). */
  completedOrderIds: string[] | null = null;

  private readonly deps: CartStoreDeps;
  private clock: ReturnType<typeof setInterval> | null = null;

  constructor(deps: CartStoreDeps) {
    this.deps = deps;
    this.nowMs = this.now();
    this.cartId = deps.storage?.getItem(this.storageKey) ?? null;
    this.declinedExtension = this.cartId !== null && deps.storage?.getItem(this.declinedKey) === this.cartId;
    makeAutoObservable<CartStore, 'deps' | 'clock' | 'startup' | 'startedUp'>(
      this,
      { deps: false, clock: false, startup: false, startedUp: false },
      { autoBind: true, deep: false },
    );
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }

  get storageKey(): string {
    return `storefront.cart.${this.deps.sellerKey}`;
  }

  private get declinedKey(): string {
    return `storefront.cartDeclinedExtension.${this.deps.sellerKey}`;
  }

  get items(): CartItem[] {
    return this.cart?.items ?? [];
  }

  get isEmpty(): boolean {
    return this.items.length === 0;
  }

  get hasAnchorItem(): boolean {
    return this.items.some((item) => item.isAnchor);
  }

  /** The stored cart read at startup (RootStore), so a screen can wait for what the cart holds. */
  private startup: Promise<void> = Promise.resolve();
  /** Which cart the startup read was of, while a screen opening may still take it for its own read. */
  private startupRead: { id: string; at: number } | null = null;
  /** Whether the startup read was asked for: a checkout the server drew makes it before the page is alive. */
  private startedUp = false;
  loadAtStartup(): Promise<void> {
    this.startedUp = true;
    if (this.cartId) this.startupRead = { id: this.cartId, at: this.now() };
    this.startup = this.load();
    return this.startup;
  }

  /** The startup read as the browser starts (RootStore.startBrowser), unless the drawn checkout made it already. */
  startOnce(): Promise<void> {
    return this.startedUp ? this.startup : this.loadAtStartup();
  }

  /**
   * The read of the cart a screen makes as it opens (the checkout reads it again first): the startup read when the
   * page has just arrived with this very cart (the page's own answer, or the read still on its way; taken once,
   * within PRIMED_READS_TTL_MS), else a new read. A checkout landed on from a link thus reads the cart once.
   */
  loadOnOpen(): Promise<void> {
    const startup = this.startupRead;
    this.startupRead = null;
    if (startup && startup.id === this.cartId && this.now() - startup.at <= PRIMED_READS_TTL_MS) return this.startup;
    return this.load();
  }
  /** Settles once the startup read of the stored cart has (whatever its outcome). */
  get settled(): Promise<void> {
    return this.startup;
  }

  /** When the cart's anchor (the admission an add-on follows) starts, if it has a session. */
  get anchorStart(): string | null {
    return this.items.find((item) => item.isAnchor && item.start_datetime)?.start_datetime ?? null;
  }

  get ticketCount(): number {
    return this.items.reduce((sum, item) => sum + item.types.reduce((s, t) => s + t.ticketCount, 0), 0);
  }

  get expiresAt(): Date | null {
    return this.cart?.expires_at ? new Date(this.cart.expires_at) : null;
  }

  /** Whole seconds until the local expiry, or null without a running hold; before the countdown runs (counting),
   *  as of the cart's last answer. */
  get secondsLeft(): number | null {
    if (this.localExpiry === null || this.isEmpty) return null;
    const from = this.deps.counting?.() === false ? this.answeredMs : this.nowMs;
    return Math.max(0, Math.ceil((this.localExpiry - from) / 1000));
  }

  get alreadyExtended(): boolean {
    return !!this.cart?.extended_at;
  }

  get showExtendOffer(): boolean {
    const left = this.secondsLeft;
    if (this.deps.extendTimer && !this.deps.extendTimer()) return false;
    return left !== null && shouldOfferExtension(left, this.declinedExtension, this.alreadyExtended);
  }

  /** Reads the stored cart again (startup, checkout, another tab). Spec section 7: a cart with under 30 s left
   *  is deleted rather than shown, so nobody starts paying for a hold about to lapse. */
  async load(): Promise<void> {
    const id = this.cartId;
    if (!id) return;
    try {
      const response = await cartApi.getCart(this.deps.api, id);
      const row = cartApi.cartOf(response);
      if (row?.state === 'pending' && row.expires_in !== null && row.expires_in < CART_RELOAD_THRESHOLD_SECONDS && row.items.length > 0) {
        await this.deleteQuietly(id);
        if (this.cartId === id) this.clear();
        return;
      }
      if (this.cartId !== id) return;
      if (row?.state === 'pending') {
        this.accept(response);
        return;
      }
      this.clear();
      if (row?.state === 'completed') this.completedOrderIds = row.ticket_order_ids;
    } catch (error) {
      const apiError = toApiError(error);
      // A cart that is gone or not ours is forgotten; anything else (offline) keeps the stored id for later.
      if (apiError.status === 404 || apiError.status === 403) {
        if (this.cartId === id) this.clear();
        return;
      }
      runInAction(() => {
        this.error = apiError;
      });
    }
  }

  /**
   * Adds tickets: creates the cart when there is none (POST cart/modify), else POST cart/{id}/modify. A stored
   * cart that can no longer change (booked, gone, not ours) is forgotten and a new one made; an expired one
   * opens the cart-expiry modal. Failures are thrown as ApiError for the caller to explain.
   */
  async reserve(lines: ReserveLine[], additionalInfo?: Record<string, unknown>): Promise<void> {
    const body = { add: lines, ...(additionalInfo && Object.keys(additionalInfo).length ? { additional_info: additionalInfo } : {}) };
    if (this.cartId && this.localExpiry !== null && !this.isEmpty && isLocallyExpired(this.localExpiry, this.now())) {
      this.expire();
    }
    const before = this.cart;
    // A new cart takes the seller's first default code (spec section 5) as the cart update's apply_code_default form:
    // no discount asked for and no refusal (a code that has run out simply is not applied).
    const first = this.deps.defaultCodes?.().find((c) => c.trim().length >= 2);
    const create = {
      ...body,
      channel_id: 'web' as const,
      ...(first ? { apply_code_default: { codes: [first.trim()], ignore_errors: true, require_benefit: false } } : {}),
    };
    try {
      this.accept(await cartApi.modifyCart(this.deps.api, this.cartId, this.cartId ? body : create));
      runInAction(() => {
        this.lastChange = { added: true, before, after: this.cart };
      });
    } catch (error) {
      const apiError = toApiError(error);
      if (!this.cartId || !endsTheCart(apiError)) throw apiError;
      if (apiError._code === 'cart_expired' && !this.isEmpty) {
        this.expire();
        throw apiError;
      }
      this.clear();
      this.accept(await cartApi.modifyCart(this.deps.api, null, create));
      runInAction(() => {
        this.lastChange = { added: true, before: null, after: this.cart };
      });
    }
  }

  /** Whether the cart is the public (guest) identity's: a logged-in shopper then still gives guest details. */
  get ownedByPublicIdentity(): boolean {
    return (this.cart as (CartRow & { ownedByPublicIdentity?: boolean }) | null)?.ownedByPublicIdentity ?? true;
  }

  /**
   * Spec section 4, after login: the cart is re-fetched; not pending -> cleared locally; pending with tickets
   * -> kept; pending without tickets -> deleted. A cart the server no longer lets us read is forgotten.
   */
  async afterLogin(): Promise<void> {
    const id = this.cartId;
    if (!id) return;
    try {
      const response = await cartApi.getCart(this.deps.api, id);
      const row = cartApi.cartOf(response);
      if (this.cartId !== id) return;
      if (!row || row.state !== 'pending') {
        this.clear();
        return;
      }
      if (row.items.length > 0) {
        this.accept(response);
        return;
      }
      await this.delete();
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.status === 404 || apiError.status === 403) {
        if (this.cartId === id) this.clear();
        return;
      }
      runInAction(() => {
        this.error = apiError;
      });
    }
  }

  requestRemove(item: CartItem): void {
    this.pendingRemoval = item;
  }

  cancelRemove(): void {
    this.pendingRemoval = null;
  }

  /** Removing the last item, or an anchor others depend on, deletes the whole cart (spec section 4). */
  removeClearsCart(item: CartItem): boolean {
    return this.items.length <= 1 || (item.isDependency && this.items.length > 1);
  }

  async confirmRemove(): Promise<void> {
    const item = this.pendingRemoval;
    if (!item || !this.cartId) return;
    this.busy = true;
    this.error = null;
    const before = this.cart;
    try {
      if (this.removeClearsCart(item)) await this.delete();
      else this.accept(await cartApi.removeTickets(this.deps.api, this.cartId, item.ticketIds));
      runInAction(() => {
        this.lastChange = { added: false, before, after: this.cart };
      });
    } catch (error) {
      runInAction(() => {
        this.error = toApiError(error);
      });
    } finally {
      runInAction(() => {
        this.busy = false;
        this.pendingRemoval = null;
      });
    }
  }

  /** DELETE cart/{id}; a cart the server no longer has counts as deleted. */
  async delete(): Promise<void> {
    const id = this.cartId;
    if (!id) return;
    await this.deleteQuietly(id);
    if (this.cartId === id) this.clear();
  }

  /** PATCH my/cart/{id}: the one 2-minute extension. */
  async extend(): Promise<void> {
    if (!this.cartId) return;
    this.error = null;
    try {
      this.accept(await cartApi.extendCart(this.deps.api, this.cartId));
    } catch (error) {
      runInAction(() => {
        this.error = toApiError(error);
      });
    }
  }

  /** Dismissing the extend modal is remembered for this cart (also in other tabs). */
  declineExtension(): void {
    this.declinedExtension = true;
    if (this.cartId) this.deps.storage?.setItem(this.declinedKey, this.cartId);
  }

  /** The clock the timer and expiry check read; ticks every second while a cart is held. */
  tick(): void {
    this.nowMs = this.now();
    if (this.localExpiry !== null && !this.isEmpty && this.cart?.state === 'pending' && isLocallyExpired(this.localExpiry, this.nowMs)) {
      this.expire();
    }
  }

  /** The hold ran out: forget the cart, release it on the server, and tell the shopper. */
  expire(): void {
    const id = this.cartId;
    this.clear();
    if (id) void this.deleteQuietly(id);
    this.deps.onExpired?.();
  }

  /** Forgets the cart locally (after checkout, on expiry, or when the server no longer has it). */
  clear(): void {
    this.cart = null;
    this.cartId = null;
    this.localExpiry = null;
    this.declinedExtension = false;
    this.pendingRemoval = null;
    this.deps.storage?.removeItem(this.storageKey);
    this.deps.storage?.removeItem(this.declinedKey);
    this.stopClock();
  }

  /** Another tab changed the stored cart id: follow it. */
  onStorageChange(newValue: string | null): void {
    if (newValue === this.cartId) return;
    if (!newValue) {
      this.clear();
      return;
    }
    this.adopt(newValue);
    void this.load();
  }

  /** Takes over a cart by id (another tab, or /checkout/{cartId}); load() then reads it. */
  adopt(cartId: string): void {
    if (cartId === this.cartId) return;
    this.cart = null;
    this.localExpiry = null;
    this.cartId = cartId;
    this.declinedExtension = false;
  }

  forgetCompletedOrders(): void {
    this.completedOrderIds = null;
  }

  /** Takes a cart answer: remembers the id, the row, and restarts the local expiry from now. */
  accept(response: CartResponse): void {
    const row = cartApi.cartOf(response);
    if (!row) return;
    this.cart = row;
    if (this.cartId !== row.id) {
      this.cartId = row.id;
      this.declinedExtension = false;
    }
    this.deps.storage?.setItem(this.storageKey, row.id);
    this.nowMs = this.now();
    this.answeredMs = this.nowMs;
    this.localExpiry = row.expires_in !== null ? localExpiry(row.expires_in, this.nowMs) : null;
    if (this.localExpiry !== null) this.startClock();
    else this.stopClock();
  }

  startClock(): void {
    if (this.clock !== null) return;
    this.clock = setInterval(() => this.tick(), 1000);
  }

  stopClock(): void {
    if (this.clock !== null) clearInterval(this.clock);
    this.clock = null;
  }

  private async deleteQuietly(id: string): Promise<void> {
    try {
      await cartApi.deleteCart(this.deps.api, id);
    } catch (error) {
      const apiError = toApiError(error);
      // Spec section 7: not_found is ignored; a cart that is already gone or not ours is as good as deleted.
      if (apiError.status !== 404 && apiError.status !== 403 && apiError.status !== 409) throw apiError;
    }
  }
}

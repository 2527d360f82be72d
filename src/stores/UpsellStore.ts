import { makeAutoObservable, reaction, runInAction } from 'mobx';
import { getAvailableEvents } from '../api/events';
import { getReservableEvent } from '../api/reservation-reads';
import type { EventTemplateRow, VenueRow } from '../contract/catalogue';
import { longDateLabel, venueDate } from '../domain/dates';
import { formatSessionTime } from '../domain/session-tabs';
import {
  followsAnchor,
  isAnchorEvent,
  requiresAnchor,
  isOfferedAfter,
  upsellSettings,
  visitWindow,
  type EventLike,
  type UpsellSettings,
  type VisitWindow,
} from '../domain/upsell';
import { upsellStorageKeys } from '../domain/upsell-storage';
import type { CartItem, KeyValueStorage } from './CartStore';
import type { AnchorVisit, VisitContext } from './reservation/types';
import { browserStorage, type RootStore } from './RootStore';
import { rootStore, useRootStore } from './lifecycle';

/**
 * The upsell chain after an anchor (spec sections 2, 3, 4, 9; issue 16). Adding an anchor (an admission) starts it: the
 * events listing then offers the add-ons that follow that anchor and fit its visit, an add-on's page shows the chained
 * add-on banner with a skip link, and each add-on taken or skipped leaves the offer; when the shopper skips the rest,
 * or none remain, the listing goes on to checkout. The chain belongs to the cart it started in: a cart cleared,
 * expired or checked out, or an anchor removed, ends it.
 *
 * Client state of spec section 3, persisted locally and followed across tabs: `upsellsChain` (the cart, its anchor
 * item, the add-ons skipped and taken, ended) and `visitWindow` (when the anchor's add-ons may start).
 */
export interface UpsellsChain {
  cartId: string;
  /** the cart item (event and session) that started the chain */
  anchorItemId: string;
  skipped: string[];
  taken: string[];
  ended: boolean;
}
export interface StoredVisitWindow extends VisitWindow {
  anchorItemId: string;
  /** the anchor's venue date */
  date: string;
}

function readJson<T>(storage: KeyValueStorage | null, key: string): T | null {
  try {
    const text = storage?.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

export type OffersState = 'idle' | 'loading' | 'ready' | 'error';

export class UpsellStore {
  chain: UpsellsChain | null;
  visitWindow: StoredVisitWindow | null;
  offers: EventTemplateRow[] = [];
  offersState: OffersState = 'idle';
  /** The checkout's upsell (config checkout_upsell_id), once read. */
  checkoutEvent: EventTemplateRow | null = null;
  private venues = new Map<string, VenueRow>();
  private readonly root: RootStore;
  private readonly storage: KeyValueStorage | null;
  private readonly keys: readonly [chain: string, visitWindow: string];
  private offersRequest = 0;

  constructor(root: RootStore, storage: KeyValueStorage | null = browserStorage()) {
    this.root = root;
    this.storage = storage;
    const seller = root.config.seller.id;
    this.keys = upsellStorageKeys(seller);
    this.chain = null;
    this.visitWindow = null;
    this.reread();
    makeAutoObservable<UpsellStore, 'root' | 'storage' | 'keys' | 'offersRequest' | 'venues'>(
      this,
      { root: false, storage: false, keys: false, offersRequest: false, venues: false },
      { autoBind: true, deep: false },
    );
    // Spec section 4: a cart cleared, expired, checked out or replaced takes its chain with it.
    reaction(
      () => root.cart.cartId,
      () => this.dropStale(),
      { fireImmediately: true },
    );
    // Another tab started, moved or ended the chain: follow it.
    if (typeof window !== 'undefined' && storage) {
      window.addEventListener('storage', (event) => {
        if (event.key && this.keys.includes(event.key)) this.reread();
      });
    }
  }

  get settings(): UpsellSettings {
    return upsellSettings(this.root.config.storefront);
  }
  /** The seller offers add-ons after an anchor: upsells on (the feature flag too) and not skipped by config. */
  get offered(): boolean {
    return this.settings.enabled && this.root.config.flags.upsells !== false && !this.settings.skip;
  }

  /** The cart item that started the chain, while it is still in the cart the chain belongs to. */
  get anchor(): CartItem | null {
    const { chain } = this;
    const { cart } = this.root;
    if (!chain || chain.cartId !== cart.cartId) return null;
    return cart.items.find((item) => item.id === chain.anchorItemId && item.isAnchor) ?? null;
  }
  get anchorEvent(): EventLike | null {
    const anchor = this.anchor;
    return anchor ? { id: anchor.event_template_id, category: anchor.category } : null;
  }

  /** The cart's anchors as the reservation flow fits an add-on to them (its tickets by type name). */
  get anchorVisits(): AnchorVisit[] {
    const timezone = this.root.config.timezone;
    return this.root.cart.items
      .filter((item) => item.isAnchor)
      .map((item) => ({
        eventId: item.event_template_id,
        category: item.category,
        sessionId: item.event_session_id,
        start: item.start_datetime,
        end: item.end_datetime,
        timezone,
        count: item.types.reduce((n, t) => n + t.ticketCount, 0),
        name: item.name,
        types: item.types.map((t) => ({ name: t.ticket_type_name, count: t.ticketCount })),
      }));
  }
  /** What a reservation flow reads to fit an add-on (ReservationDeps.visit). */
  visitContext(): VisitContext {
    const { cart } = this.root;
    return { settings: this.settings, anchors: this.anchorVisits, chainOffers: this.isOffer, known: !cart.cartId || !!cart.cart };
  }

  /** 'For your visit on {date}: {anchor} at {time}' as an i18n key and its values, while the chain has an anchor. */
  get visitLabel(): { key: string; params: Record<string, string> } | null {
    const anchor = this.anchor;
    const tz = this.root.config.timezone;
    if (!anchor) return null;
    const start = anchor.start_datetime;
    return start
      ? {
          key: 'events.upsellVisit',
          params: { date: longDateLabel(venueDate(start, tz)), event: anchor.name, time: formatSessionTime(start, tz) },
        }
      : { key: 'events.upsellVisitAnyDay', params: { event: anchor.name } };
  }

  /** The chain runs: offered, started in this cart, its anchor still there, not skipped to the end. */
  get active(): boolean {
    return this.offered && !!this.chain && !this.chain.ended && !!this.anchor;
  }

  /** The chain offers this event now (the add-on banner shows on its page). */
  isOffer(event: EventLike): boolean {
    const anchor = this.anchorEvent;
    if (!this.active || !anchor || !this.chain) return false;
    if (this.chain.skipped.includes(event.id) || this.chain.taken.includes(event.id)) return false;
    return isOfferedAfter(event, anchor, this.settings) && !this.root.cart.items.some((i) => i.event_template_id === event.id);
  }

  /** The add-ons still offered, in the listing's order. */
  get remaining(): EventTemplateRow[] {
    return this.offers.filter((event) => this.isOffer(event));
  }
  venueOf(event: EventTemplateRow): VenueRow | null {
    return event.venue_id ? (this.venues.get(event.venue_id) ?? null) : null;
  }

  /**
   * Where the shopper goes after 'Add to cart' on `event`: an anchor starts the chain (the listing of its add-ons),
   * an add-on of a running chain is taken and the listing offers the rest; anything else goes to checkout.
   */
  nextAfterReserve(event: EventLike, sessionId: string | null): string {
    if (this.offered && isAnchorEvent(event, this.settings) && this.start(`${event.id}:${sessionId ?? 'any'}`)) return '/events';
    if (this.active && this.chain) {
      this.write({ ...this.chain, taken: [...this.chain.taken, event.id] });
      return '/events';
    }
    return '/checkout';
  }

  /** Starts the chain at an anchor item of the cart; false when the cart holds no such anchor. */
  start(anchorItemId: string): boolean {
    const { cart, config } = this.root;
    const item = cart.items.find((i) => i.id === anchorItemId && i.isAnchor);
    if (!item || !cart.cartId) return false;
    const span = visitWindow({ start: item.start_datetime, end: item.end_datetime }, this.settings.visitTime, config.timezone);
    // An anchor for any day (a flexible pass) fits every time: an empty window.
    this.visitWindow = span
      ? { ...span, anchorItemId, date: venueDate(item.start_datetime!, config.timezone) }
      : { from: 0, to: 0, anchorItemId, date: '' };
    this.storage?.setItem(this.keys[1], JSON.stringify(this.visitWindow));
    this.write({ cartId: cart.cartId, anchorItemId, skipped: [], taken: [], ended: false });
    this.offers = [];
    this.offersState = 'idle';
    return true;
  }

  /** The add-on banner's skip link: this add-on leaves the offer. */
  skip(eventId: string): void {
    if (this.chain && !this.chain.skipped.includes(eventId)) this.write({ ...this.chain, skipped: [...this.chain.skipped, eventId] });
  }
  /** The rest is skipped (the listing's skip link), or nothing remains: the chain ends and checkout follows. */
  end(): void {
    if (this.chain && !this.chain.ended) this.write({ ...this.chain, ended: true });
  }

  /** The events of the anchor's visit (its window's dates and times), with their config for the offer rules. */
  async loadOffers(): Promise<void> {
    const request = ++this.offersRequest;
    this.offersState = 'loading';
    const params: Record<string, string> = { _embed: 'venue,meta,config', _limit: '100' };
    if (this.root.isActiveMember) params['hidden_type._in'] = 'public_browsable,public_member_only';
    const w = this.visitWindow;
    if (w && w.to > w.from) {
      params['start_datetime._gte'] = new Date(w.from).toISOString();
      params['start_datetime._lt'] = new Date(w.to).toISOString();
    }
    try {
      const list = await getAvailableEvents(this.root.api, params);
      if (request !== this.offersRequest) return;
      runInAction(() => {
        this.offers = list.events;
        this.venues = new Map(list.venues.map((v) => [v.id, v]));
        this.offersState = 'ready';
      });
    } catch {
      if (request !== this.offersRequest) return;
      runInAction(() => {
        this.offersState = 'error';
      });
    }
  }

  /** The event the checkout offers (config checkout_upsell_id); a failed read offers nothing. */
  async loadCheckoutOffer(): Promise<void> {
    const id = this.root.config.storefront.checkout_upsell_id;
    if (typeof id !== 'string' || this.checkoutEvent?.id === id) return;
    try {
      const { event } = await getReservableEvent(this.root.api, id);
      runInAction(() => {
        this.checkoutEvent = event;
      });
    } catch {
      // the offer is extra: without it the checkout is the same
    }
  }

  /** The checkout offers its upsell unless the cart has it already, or it needs an anchor the cart does not hold. */
  get checkoutOffer(): EventTemplateRow | null {
    const event = this.checkoutEvent;
    const { cart } = this.root;
    if (!event || !this.offered || cart.isEmpty || cart.items.some((i) => i.event_template_id === event.id)) return null;
    const anchors = cart.items.filter((i) => i.isAnchor).map((i) => ({ id: i.event_template_id, category: i.category }));
    if (requiresAnchor(event) && !anchors.some((a) => followsAnchor(event, a, this.settings))) return null;
    return event;
  }

  private write(chain: UpsellsChain): void {
    this.chain = chain;
    this.storage?.setItem(this.keys[0], JSON.stringify(chain));
  }

  private reread(): void {
    this.chain = readJson<UpsellsChain>(this.storage, this.keys[0]);
    this.visitWindow = readJson<StoredVisitWindow>(this.storage, this.keys[1]);
  }

  /** A chain of a cart this browser no longer holds is forgotten, here and in storage. */
  private dropStale(): void {
    if (!this.chain || this.chain.cartId === this.root.cart.cartId) return;
    this.chain = null;
    this.visitWindow = null;
    for (const key of this.keys) this.storage?.removeItem(key);
  }
}

const create = (root: RootStore) => new UpsellStore(root);
/** The page's one chain (root-owned, made on first use: the events listing loads this module only when a chain may run). */
export const upsellStore = (root: RootStore) => rootStore(root, 'upsells', create);
export const useUpsells = () => useRootStore('upsells', create);

import { makeAutoObservable, runInAction } from 'mobx';
import type { AxiosInstance } from 'axios';
import * as cartApi from '../api/cart';
import { toApiError } from '../api/errors';
import type { CartStore } from './CartStore';

/** What the transfer page shows, or where it goes (spec section 2, /transfer-cart/{cartId}). */
export type TransferOutcome =
  | { kind: 'loading' }
  /** the cart is the visitor's now: on to the link's next path (or /checkout) */
  | { kind: 'go'; to: string }
  /** the cart was checked out already: its confirmation */
  | { kind: 'complete'; orderIds: string[] }
  /** 'This cart belongs to another member' */
  | { kind: 'another_member' }
  /** '404 Cart not found' */
  | { kind: 'not_found' }
  /** '403 Access denied to cart' */
  | { kind: 'denied' }
  | { kind: 'error' };

export interface CartTransferStoreDeps {
  api: AxiosInstance;
  cart: CartStore;
}

/**
 * Cart transfer (issue 17): making a link that carries the shopper's cart to another device (the checkout's 'Continue
 * on another device'), and opening one (the /transfer-cart page). The link's token is the only thing that hands the
 * cart over; without it the page reads the cart as any browser would (403 when it is someone else's).
 */
export class CartTransferStore {
  /** the link made for the shopper's cart */
  link: { cartId: string; token: string; expiresAt: string } | null = null;
  making = false;
  makeFailed = false;
  outcome: TransferOutcome = { kind: 'loading' };
  private readonly deps: CartTransferStoreDeps;

  constructor(deps: CartTransferStoreDeps) {
    this.deps = deps;
    makeAutoObservable<CartTransferStore, 'deps'>(this, { deps: false }, { autoBind: true });
  }

  /** POST cart/{id}/transfer for the shopper's cart. */
  async makeLink(): Promise<void> {
    const cartId = this.deps.cart.cartId;
    if (!cartId || this.making) return;
    this.making = true;
    this.makeFailed = false;
    try {
      const row = await cartApi.createTransferLink(this.deps.api, cartId);
      runInAction(() => {
        this.link = { cartId: row.cart_id, token: row.token, expiresAt: row.expires_at };
      });
    } catch {
      runInAction(() => {
        this.makeFailed = true;
      });
    } finally {
      runInAction(() => {
        this.making = false;
      });
    }
  }

  /**
   * Opens a transferred cart: claims it with the link's token (or reads it without one), then decides as spec section 2
   * says. `identityId` is the logged-in visitor's: their own member cart is theirs too.
   */
  async open(args: { cartId: string; token: string | null; next: string; identityId: string | null }): Promise<void> {
    this.outcome = { kind: 'loading' };
    try {
      const { api, cart } = this.deps;
      const response = args.token ? await cartApi.claimCart(api, args.cartId, args.token) : await cartApi.getCart(api, args.cartId);
      const row = cartApi.cartOf(response);
      runInAction(() => {
        if (!row) this.outcome = { kind: 'not_found' };
        else if (row.state === 'completed' && row.ticket_order_ids.length > 0)
          this.outcome = { kind: 'complete', orderIds: row.ticket_order_ids };
        else if (row.ownedByPublicIdentity || (args.identityId !== null && row.identity_id === args.identityId)) {
          cart.accept(response);
          this.outcome = { kind: 'go', to: args.next };
        } else {
          cart.clear();
          this.outcome = { kind: 'another_member' };
        }
      });
    } catch (error) {
      const status = toApiError(error).status;
      runInAction(() => {
        this.outcome = status === 404 ? { kind: 'not_found' } : status === 403 ? { kind: 'denied' } : { kind: 'error' };
      });
    }
  }
}

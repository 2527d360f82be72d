import { makeAutoObservable } from 'mobx';
import type { ComponentType } from 'react';

/** Names of the dialogs the modals host knows how to draw (src/app/ModalsHost.tsx). */
export type ModalName = 'mobile-cart' | 'cart-expiry' | 'login' | 'promo-codes';

export interface OpenModal {
  name: ModalName;
  props?: Record<string, unknown>;
}

/** UI state that is not domain data: which dialog is open, what /events draws. */
export class UiStore {
  modal: OpenModal | null = null;
  /** The events listing of an upsell chain (issue 16). The event page, whose 'Add to cart' starts a chain, brings its
   *  code and sets it here; /events then draws it (src/app/router.tsx), so the first page's listing never carries it. */
  upsellListing: ComponentType | null = null;

  constructor() {
    // References: a dialog and the listing are replaced whole, never changed in place (a component is no observable).
    makeAutoObservable(this, {}, { autoBind: true, deep: false });
  }

  setUpsellListing(listing: ComponentType): void {
    this.upsellListing = listing;
  }

  openModal(name: ModalName, props?: Record<string, unknown>): void {
    this.modal = { name, props };
  }

  closeModal(): void {
    this.modal = null;
  }
}

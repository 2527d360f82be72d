import { makeAutoObservable } from 'mobx';

/** Names of the dialogs the modals host knows how to draw (src/app/ModalsHost.tsx). */
export type ModalName = 'mobile-cart' | 'cart-expiry' | 'login' | 'promo-codes';

export interface OpenModal {
  name: ModalName;
  props?: Record<string, unknown>;
}

/** UI state that is not domain data: which dialog is open. */
export class UiStore {
  modal: OpenModal | null = null;

  constructor() {
    makeAutoObservable(this, {}, { autoBind: true });
  }

  openModal(name: ModalName, props?: Record<string, unknown>): void {
    this.modal = { name, props };
  }

  closeModal(): void {
    this.modal = null;
  }
}

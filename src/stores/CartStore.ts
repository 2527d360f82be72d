import { makeAutoObservable } from 'mobx';

/** A cart line as the cart widget shows it (spec section 3, "Cart item (display)"). */
export interface CartItem {
  id: string;
  name: string;
  isAnchor: boolean;
  ticketCount: number;
}

/** The shopper's cart. Carts are not served by the API yet, so it starts empty and stays empty until the
 *  cart calls arrive; the screens already read it (cart widget, upsell heading). */
export class CartStore {
  items: CartItem[] = [];

  constructor() {
    makeAutoObservable(this, {}, { autoBind: true });
  }

  get isEmpty(): boolean {
    return this.items.length === 0;
  }

  get hasAnchorItem(): boolean {
    return this.items.some((item) => item.isAnchor);
  }

  get ticketCount(): number {
    return this.items.reduce((sum, item) => sum + item.ticketCount, 0);
  }
}

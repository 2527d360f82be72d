import { CheckoutStore } from '../../stores/CheckoutStore';
import { useRootStore } from '../../stores/lifecycle';

// The checkout store comes with the checkout and completion screens' code rather than with every page; one per
// root store, so the completion screen reads what checkout left.
export function useCheckoutStore(): CheckoutStore {
  return useRootStore('checkout', (root) => new CheckoutStore({ api: root.api, cart: root.cart }));
}

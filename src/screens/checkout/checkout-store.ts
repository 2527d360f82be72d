import { CheckoutStore } from '../../stores/CheckoutStore';
import type { RootStore } from '../../stores/RootStore';
import { useStores } from '../../stores/context';

// The checkout store comes with the checkout and completion screens' code rather than with every page;
// one per root store, so the completion screen reads what checkout left.
const stores = new WeakMap<RootStore, CheckoutStore>();

export function checkoutStoreOf(root: RootStore): CheckoutStore {
  let store = stores.get(root);
  if (!store) {
    store = new CheckoutStore({ api: root.api, cart: root.cart });
    stores.set(root, store);
  }
  return store;
}

export function useCheckoutStore(): CheckoutStore {
  return checkoutStoreOf(useStores());
}

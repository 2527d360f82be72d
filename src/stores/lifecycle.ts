import { useEffect, useState } from 'react';
import { useStores } from './context';
import type { RootStore } from './RootStore';

/**
 * The one store lifecycle (README, "Stores"):
 * - root-owned stores live as long as the page: the RootStore creates config, ui, cart, events and session; a store
 *   whose code should not weigh on every page (checkout) is created the first time a screen asks for it, once per
 *   root, with `useRootStore`;
 * - per-screen stores (a reservation flow, a login form, the account area) are made by `useScreenStore` for their
 *   keys, started when the screen mounts and disposed when it is left. A disposed store may be started again:
 *   React's StrictMode mounts twice in development.
 */
export interface ScreenStore {
  /** The screen is on: timers and answers may change the store. */
  start?(): void;
  /** The screen is gone: stop timers, ignore answers still on their way. */
  dispose?(): void;
}

export function useScreenStore<T extends object>(create: () => T & ScreenStore, keys: readonly unknown[]): T {
  // A new store exactly when a key changes (state adjusted while rendering); `create` reads the render it is made in.
  const [made, setMade] = useState(() => ({ keys, store: create() }));
  let store = made.store;
  if (made.keys.length !== keys.length || made.keys.some((k, i) => !Object.is(k, keys[i]))) {
    store = create();
    setMade({ keys, store });
  }
  useEffect(() => {
    const { start, dispose } = store as ScreenStore;
    start?.call(store);
    return () => dispose?.call(store);
  }, [store]);
  return store;
}

const owned = new WeakMap<RootStore, Map<string, unknown>>();

/** A root-owned store made on first use: one per root, kept for the page's life (the completion screen reads what
 *  checkout left). */
export function rootStore<T>(root: RootStore, name: string, create: (root: RootStore) => T): T {
  let stores = owned.get(root);
  if (!stores) owned.set(root, (stores = new Map()));
  if (!stores.has(name)) stores.set(name, create(root));
  return stores.get(name) as T;
}

export function useRootStore<T>(name: string, create: (root: RootStore) => T): T {
  return rootStore(useStores(), name, create);
}

import { createElement, lazy, useState, type ComponentType } from 'react';
import { landingScreenOf, type LandingScreen } from '../domain/paths';

/** A screen in its own chunk, drawn at once when its code is already here. */
export type Screen = ComponentType & {
  /** Starts (once) the download of the screen's chunk; resolves when the screen can be drawn without suspending. */
  preload(): Promise<unknown>;
};

/**
 * A screen in its own chunk, so the events listing downloads only what it draws. React.lazy suspends on its
 * first render even when the chunk has arrived, and React 19 keeps a shown fallback for at least 300 ms
 * (FALLBACK_THROTTLE_MS): the landing screen mounted, and fetched its data, ~300 ms late. A screen whose chunk
 * was preloaded is drawn directly; one mounted before that goes through lazy() for its whole life, so a
 * re-render never swaps the component type (which would remount it and lose its state).
 */
export function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): Screen {
  let loaded: ComponentType | undefined;
  let pending: Promise<ComponentType> | undefined;
  const preload = () =>
    (pending ??= loadChunk(load).then(
      (module) => (loaded = module[name]),
      // A failed download is tried again by the next preload or render; the route's error boundary reports it.
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function LazyScreen(props: object) {
    const [Loaded] = useState(() => loaded);
    return createElement(Loaded ?? Lazy, props);
  }
  return Object.assign(LazyScreen, { preload });
}

export const NotFoundScreen = screen(() => import('../screens/not-found/NotFoundScreen'), 'NotFoundScreen');
export const HomeScreen = screen(() => import('../screens/home/HomeScreen'), 'HomeScreen');
export const EventsScreen = screen(() => import('../screens/events/EventsScreen'), 'EventsScreen');
export const EventDetailScreen = screen(() => import('../screens/event-detail/EventDetailScreen'), 'EventDetailScreen');
/** The checkout's module: its screen, and what a checkout the server drew primes first (src/app/first-screen.ts). */
export const loadCheckoutModule = () => import('../screens/checkout/CheckoutScreen');
export const CheckoutScreen = screen(loadCheckoutModule, 'CheckoutScreen');

const LANDING: Record<LandingScreen, Screen> = {
  events: EventsScreen,
  'event-detail': EventDetailScreen,
  checkout: CheckoutScreen,
};

/** The screen a path lands on: the boot downloads its chunk beside the config (src/domain/paths.ts landingScreenOf). */
export function landingScreen(pathname: string): Screen | null {
  const name = landingScreenOf(pathname);
  return name ? LANDING[name] : null;
}

/** A screen's code that could not be downloaded, even on the second try. */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/** The module address a failed dynamic import names ('Failed to fetch dynamically imported module: https://…/x.js'). */
export function failedModuleUrl(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  return /(https?:\/\/\S+?\.js)(?:\?\S*)?\s*$/.exec(message)?.[1] ?? null;
}

/**
 * A chunk whose download failed is tried once more under a new address (spec section 8: retry once with cache
 * busting): the browser remembers a failed module address for the life of the page, so the same import would fail
 * again at once. A second failure is a ChunkLoadError, which the route's error boundary shows.
 */
export async function loadChunk<T>(
  load: () => Promise<T>,
  importer: (url: string) => Promise<T> = (url) => import(/* @vite-ignore */ url),
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const url = failedModuleUrl(error);
    if (!url) throw new ChunkLoadError(error instanceof Error ? error.message : String(error), { cause: error });
    try {
      return await importer(`${url}?retry=${Date.now()}`);
    } catch (again) {
      throw new ChunkLoadError(`Could not load ${url}`, { cause: again });
    }
  }
}

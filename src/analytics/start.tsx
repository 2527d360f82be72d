import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { reaction } from 'mobx';
import type { RootStore } from '../stores/RootStore';
import { connectTracking, dropTracking, track } from './track';
import { toEcommerceEvent } from './ecommerce';
import { ConsentPrompt } from './ConsentPrompt';
import './consent.css';

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** Where the seller's Google Tag Manager container comes from (its own script; the page's CSP allows this origin). */
export const TAG_MANAGER_ORIGIN = 'https://www.googletagmanager.com';

export interface AnalyticsDeps {
  store: Pick<RootStore, 'config' | 'events' | 'cart'>;
  i18n: I18n;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}

const consentKey = (sellerId: string) => `analytics-consent:${sellerId}`;

/** The seller's container, once per page; without a container id nothing is loaded. */
function loadTagManager(containerId: string | null | undefined) {
  if (!containerId || document.querySelector('script[data-tag-manager]')) return;
  window.dataLayer!.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  const script = document.createElement('script');
  script.async = true;
  script.dataset.tagManager = containerId;
  script.src = `${TAG_MANAGER_ORIGIN}/gtm.js?id=${encodeURIComponent(containerId)}`;
  document.head.appendChild(script);
}

/**
 * What the shopper looks at and puts in the cart, read off the stores (so the first load carries no analytics code):
 * the listing and the event as they arrive (also the ones already there when this chunk loaded), and each add or
 * removal the cart store records. The reports wait in track.ts until the visitor answers.
 */
function observeStores({ events, cart }: AnalyticsDeps['store']) {
  reaction(
    () => (events.state === 'ready' ? events.events : null),
    (list) => list && track({ name: 'view_item_list', events: list }),
    { fireImmediately: true },
  );
  reaction(
    () => events.detail?.event,
    (event) => event && track({ name: 'view_item', event }),
    { fireImmediately: true, equals: (a, b) => a?.id === b?.id },
  );
  reaction(
    () => cart.lastChange,
    (change) => change && track({ name: change.added ? 'add_to_cart' : 'remove_from_cart', before: change.before, after: change.after }),
  );
}

/**
 * The analytics chunk (main.tsx loads it after the first paint): with the seller's `analytics.enabled`, and once the
 * visitor accepted where `require_consent` (default) asks, ecommerce events go into window.dataLayer and the seller's
 * tag manager container loads. Before the answer nothing is pushed or loaded; a decline is kept and drops every report.
 */
export function startAnalytics({ store, i18n, storage }: AnalyticsDeps): void {
  const { config } = store;
  const settings = config.storefront.analytics;
  if (!settings?.enabled) return dropTracking();
  observeStores(store);
  const begin = () => {
    const dataLayer = (window.dataLayer ??= []);
    loadTagManager(settings.tag_manager_id);
    connectTracking((report) => {
      const event = toEcommerceEvent(report, config.seller.currency);
      if (!event) return;
      // GA4's advice: clear the previous ecommerce object so its items do not merge into this event's.
      dataLayer.push({ ecommerce: null });
      dataLayer.push(event);
    });
  };
  if (settings.require_consent === false) return begin();
  const key = consentKey(config.seller.id);
  const answer = storage?.getItem(key);
  if (answer === 'granted') return begin();
  if (answer === 'denied') return dropTracking();
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  const onAnswer = (granted: boolean) => {
    storage?.setItem(key, granted ? 'granted' : 'denied');
    if (granted) begin();
    else dropTracking();
    // Unmounted after the click's own work, so focus does not fall into a removed subtree mid-event.
    setTimeout(() => {
      root.unmount();
      host.remove();
    });
  };
  root.render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <ConsentPrompt onAnswer={onAnswer} />
      </I18nextProvider>
    </StrictMode>,
  );
}

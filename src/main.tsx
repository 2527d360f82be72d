import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import './styles/app.css';
import { bootstrap } from './boot';
import { bootTranslation, createI18n, loadTranslation } from './i18n';
import { RootStore } from './stores/RootStore';
import { StoresProvider } from './stores/context';
import { AppRoutes } from './app/router';
import { basenameFor } from './domain/paths';
import { applyTheme } from './app/theme';
import { BootError, BootLoading } from './BootScreens';

function renderWith(root: Root, i18n: I18n, node: React.ReactNode) {
  root.render(<StrictMode><I18nextProvider i18n={i18n}>{node}</I18nextProvider></StrictMode>);
}

/** The screens whose chunk the boot fetches early: the pages people land on from outside (links, ads, e-mails). */
const SCREEN_CHUNKS = {
  events: () => import('./screens/events/EventsScreen'),
  eventDetail: () => import('./screens/event-detail/EventDetailScreen'),
  checkout: () => import('./screens/checkout/CheckoutScreen'),
};

/**
 * Starts the download of the screen chunk the current path will draw, beside the config fetches, so the router's
 * lazy() import finds it already loaded (app/router.tsx: /events, /events/:eventId(/:action), /checkout/:cartId?).
 * The first segment may be a seller slug (boot decides later), so the path is tried with and without it.
 */
function prefetchScreen(pathname: string): void {
  const segments = pathname.split('/').filter(Boolean);
  for (const [first, second] of [segments, segments.slice(1)]) {
    const load = first === 'events' ? (second ? SCREEN_CHUNKS.eventDetail : SCREEN_CHUNKS.events)
      : first === 'checkout' && second !== 'complete' ? SCREEN_CHUNKS.checkout : null;
    // A failed download is the router's to report, when it imports the screen again.
    if (load) { load().catch(() => {}); return; }
  }
}

/** Boot (DESIGN.md section 2): deployment config -> seller config -> i18n -> stores -> router. */
async function main() {
  prefetchScreen(window.location.pathname);
  const root = createRoot(document.getElementById('root')!);
  const baseI18n = createI18n({ ...bootTranslation });
  renderWith(root, baseI18n, <BootLoading />);
  try {
    const [boot, translation] = await Promise.all([bootstrap(window.location.pathname), loadTranslation()]);
    const i18n = createI18n(translation, boot.sellerConfig.strings);
    document.documentElement.lang = i18n.language;
    const store = new RootStore(boot);
    applyTheme(store.config);
    renderWith(root, i18n, (
      <StoresProvider store={store}>
        {/* Navigations are not transitions: while the next screen's code loads, its route shows the loading status
            (announced to screen readers) instead of the old screen standing still. */}
        <BrowserRouter basename={basenameFor(store.config.sellerPrefix)} useTransitions={false}><AppRoutes /></BrowserRouter>
      </StoresProvider>
    ));
  } catch (error) {
    console.error('storefront boot failed', error);
    renderWith(root, baseI18n, <BootError />);
  }
}

void main();

import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import './styles/app.css';
import { bootstrap } from './boot';
import { bootTranslation, createI18n, loadTranslation } from './i18n';
import { RootStore } from './stores/RootStore';
import { AppRoutes, upsellChainStored } from './app/router';
import { basenameFor } from './domain/paths';
import { applyTheme } from './app/theme';
import { BootError, BootLoading } from './BootScreens';
import { landingScreen } from './app/screens';
import { primeReads, readBootData } from './api/primed-reads';
import { readMarker, STAFF_MARKER_COOKIE } from './domain/session';
import { AppTree } from './app/AppTree';
import { primeDrawnScreen } from './app/first-screen';

/** A boot screen (loading, or the boot error) before the app's stores exist. */
function bootScreen(i18n: I18n, node: React.ReactNode) {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>{node}</I18nextProvider>
    </StrictMode>
  );
}

/**
 * The feature-flag poller and the seller's analytics (src/app/late-start.ts) load when the first flags poll is due
 * (`flags_poll_ms` after the first paint, spec section 9: 1000 ms): the first screen never waits for them, and the
 * first load carries none of their code.
 */
function startLateModules(store: RootStore, i18n: I18n) {
  setTimeout(
    () =>
      import('./app/late-start')
        .then(({ startLate }) => startLate(store, i18n))
        // A chunk that failed to load leaves the page as it was (the flags it booted with, no analytics).
        .catch(() => {}),
    // The config's interval (at least 250 ms; src/domain/flags.ts checks it in the poller).
    Math.max(250, store.config.storefront.flags_poll_ms ?? 1000),
  );
}

/** The server drew the landing screen into the page (server rendering, src/entry-server.tsx). */
const DRAWN_ATTRIBUTE = 'data-drawn';

/** Boot (DESIGN.md section 2): deployment config -> seller config -> i18n -> stores -> router. */
async function main() {
  // The server answers the page's first public reads inside it (server/http/index-html.ts).
  const bootData = readBootData();
  if (bootData) primeReads(bootData.reads);
  // The landing screen's chunk downloads beside the config, and the app is drawn once both are here, so the
  // screen mounts (and starts its own fetches) at once instead of behind a suspended fallback.
  const landing = landingScreen(bootData?.landing ?? window.location.pathname)
    ?.preload()
    .catch(() => {});
  const bootDeps = bootData ? { fetchDeployment: async () => bootData.deployment } : {};
  const container = document.getElementById('root')!;
  // A page the server drew stays as it is until the client takes it over; any other shows the loading status.
  const drawn = container.hasAttribute(DRAWN_ATTRIBUTE);
  let root: Root | null = null;
  const draw = (node: React.ReactNode) => (root ??= createRoot(container)).render(node);
  const baseI18n = createI18n({ ...bootTranslation });
  if (!drawn) draw(bootScreen(baseI18n, <BootLoading />));
  try {
    const [boot, translation] = await Promise.all([bootstrap(window.location.pathname, bootDeps), loadTranslation(), landing]);
    const i18n = createI18n(translation, boot.sellerConfig.strings);
    document.documentElement.lang = i18n.language;
    // A member of staff (their marker cookie only) boots as the visitor their preview shows (issue 18).
    const staff = readMarker(document.cookie, STAFF_MARKER_COOKIE);
    const deps = staff ? await import('./app/staff-boot').then(async (m) => m.withPreview(boot, await m.staffBoot(boot.api))) : boot;
    // The drawn page is what a visitor with no cart and nobody logged in sees: the client's first render must be
    // the same, so the cart and the session start once it has hydrated. A member of staff's preview, or an upsell
    // chain under way, is another screen: drawn afresh by the client.
    const store = new RootStore({ ...deps, deferBrowserStart: true });
    const hydrate = drawn && !staff && !upsellChainStored(store.config.seller.id);
    applyTheme(store.config);
    const { pathname, search } = window.location;
    const app = (
      <AppTree store={store} i18n={i18n}>
        {/* Navigations are not transitions: while the next screen's code loads, its route shows the loading status
            (announced to screen readers) instead of the old screen standing still. */}
        <BrowserRouter basename={basenameFor(store.config.sellerPrefix)} useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </AppTree>
    );
    if (hydrate && (await primeDrawnScreen(store, pathname, search).catch(() => false))) {
      // The first render hydrates the server's drawing (in slices that yield to the browser, as below). The browser
      // starts once the screen has hydrated (src/app/AppShell.tsx), and the page's controls work from then.
      startTransition(() => {
        hydrateRoot(container, app);
      });
    } else {
      store.startBrowser();
      // The app's first render is a transition: React renders it in slices that yield to the browser (the loading
      // status stays until it commits), not in one long task that holds the main thread.
      startTransition(() => draw(app));
    }
    startLateModules(store, i18n);
  } catch (error) {
    console.error('storefront boot failed', error);
    draw(bootScreen(baseI18n, <BootError />));
  }
}

void main();

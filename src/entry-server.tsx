/**
 * Server rendering (issue 19): the landing screen drawn into the page, so the visitor's first paint is the screen
 * itself rather than a loading status behind the scripts. Built by `vite build --ssr` into dist-ssr/ and called by
 * the page route (server/http/index-html.ts) with the boot data the page carries; the browser hydrates it
 * (src/main.tsx). Which screens are drawn, and what each loads first: src/app/first-screen.ts.
 */
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { enableStaticRendering } from 'mobx-react-lite';
import translation from '../locales/en/translation.json';
import { bootstrap } from './boot';
import { createApiClient } from './api/client';
import { readKey, type BootData } from './contract/first-reads';
import type { DrawnScreen, DrawnVisitor, ServerRenderer } from './contract/drawn-screen';
import { SESSION_MARKER_COOKIE } from './domain/session';
import { createI18n } from './i18n';
import { RootStore } from './stores/RootStore';
import { AppTree } from './app/AppTree';
import { AppRoutes } from './app/router';
import { basenameFor, drawnScreenOf } from './domain/paths';
import { drawnScreenTitle, primeDrawnScreen } from './app/first-screen';
import { themeVariables } from './app/theme';
import { documentTitle } from './app/useDocumentTitle';

// Observer components render once on the server: no reactions to keep or dispose of.
enableStaticRendering(true);

/** The server renders from the page's reads alone: a read it does not carry, or a write, is refused. */
function noNetwork(): Promise<never> {
  return Promise.reject(new Error('server rendering reads only the answers the page carries'));
}

/**
 * The screen at `url` (path and query) as its visitor first sees it, drawn from `data.reads` at the time `now` gives
 * (the server's clock): nobody logged in (the header waits for the member when the request carried a session's
 * marker), and no cart but the one a checkout's page carries (its owner's); null when
 * the screen is not one the server draws, or its reads are not all there.
 */
export const renderScreen: ServerRenderer['renderScreen'] = async function renderScreen(
  url: string,
  data: BootData,
  now: () => Date = () => new Date(),
  visitor: DrawnVisitor = { sessionMarked: false },
): Promise<DrawnScreen | null> {
  const { pathname, search } = new URL(url, 'http://page');
  const reads = new Map(Object.entries(data.reads));
  const take = (address: string) => reads.get(readKey(address));
  const boot = await bootstrap(pathname, {
    fetchDeployment: async () => data.deployment,
    createApi: (options) => createApiClient(options, noNetwork, take),
  });
  if (!drawnScreenOf(pathname, search, boot.sellerPrefix)) return null;
  // A session's marker in the request: the header waits for the member, as the browser's first render does.
  const cookies = visitor.sessionMarked ? `${SESSION_MARKER_COOKIE}=drawn` : null;
  const store = new RootStore({ ...boot, storage: null, readCookies: () => cookies, now });
  try {
    if (!(await primeDrawnScreen(store, pathname, search))) return null;
    // A fresh copy: the instance writes the seller's overrides into the object it is given.
    const i18n = createI18n(structuredClone(translation), boot.sellerConfig.strings);
    const html = renderToString(
      <AppTree store={store} i18n={i18n}>
        <StaticRouter basename={basenameFor(store.config.sellerPrefix)} location={pathname + search}>
          <AppRoutes />
        </StaticRouter>
      </AppTree>,
    );
    return {
      html,
      theme: themeVariables(store.config),
      title: documentTitle(
        drawnScreenTitle(store, pathname, search, (key) => i18n.t(key)),
        store.config.seller.name,
      ),
    };
  } finally {
    // A checkout's cart started its countdown's clock as it took the cart.
    store.cart.stopClock();
  }
};

import { lazy, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, Navigate, Outlet, useLocation, useNavigationType } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { LOGO, logoSrc } from '../domain/page-images';
import { isExternalTarget } from '../domain/guards';
import { redirectFor } from './redirects';
import { RouteErrorBoundary, RouteLoading } from './RouteStates';
import { ModalsHost } from './ModalsHost';
import { MemberMenu } from './MemberMenu';
import { SessionWatcher } from './SessionWatcher';
import { ReloadBanner } from './ReloadBanner';

// Only members of staff (issue 18) download the preview bar.
const StaffBar = lazy(() => import('./staff/StaffBar'));

export const Header = observer(function Header() {
  const { t } = useTranslation();
  const { config } = useStores();
  const logoId = config.logoImageId;
  const brandClass = logoId ? 'brand brand--with-logo' : 'brand';
  const logoUrl = config.storefront.external_urls?.logo;
  const external = typeof logoUrl === 'string' && /^https?:\/\//i.test(logoUrl) ? logoUrl : null;
  const brand = (
    <>
      {logoId && (
        <img className="brand__logo" alt="" width={LOGO.width} height={LOGO.height} src={logoSrc(config.deployment.apiBaseUrl, logoId)} />
      )}
      <span className="brand__name">{config.seller.name}</span>
    </>
  );
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        {external ? (
          // The seller's own site (config external_urls.logo): the logo leads there, as on the rest of their web.
          <a href={external} className={brandClass} aria-label={t('header.homeLink', { name: config.seller.name })}>
            {brand}
          </a>
        ) : (
          <Link to="/" className={brandClass} aria-label={t('header.homeLink', { name: config.seller.name })}>
            {brand}
          </Link>
        )}
        <MemberMenu />
      </div>
    </header>
  );
});

export const Footer = observer(function Footer() {
  const { t } = useTranslation();
  const { config, now } = useStores();
  return (
    <footer className="site-footer">
      <div className="container">
        <p>{t('footer.copyright', { year: now().getFullYear(), name: config.seller.name })}</p>
      </div>
    </footer>
  );
});

/** Leaves the storefront for an external redirect target (guards may send a visitor to the seller's site). */
function ExternalRedirect({ to }: { to: string }) {
  useEffect(() => {
    window.location.replace(to);
  }, [to]);
  return <RouteLoading />;
}

/** The trailing-slash rule and guards 1-3 (domain/guards.ts) for every navigation, before the screen renders.
 *  /my itself runs guard 3 in its screen (MyIndex), which waits for the session. */
const GuardedOutlet = observer(function GuardedOutlet() {
  const root = useStores();
  const { config } = root;
  const location = useLocation();
  const target =
    location.pathname === '/my'
      ? null
      : redirectFor(location, {
          redirect: config.storefront.redirect,
          home: config.storefront.home,
          hasSellerPrefix: config.sellerPrefix !== null,
          isActiveMember: root.isActiveMember,
        });
  if (target) return isExternalTarget(target) ? <ExternalRedirect to={target} /> : <Navigate to={target} replace />;
  return (
    <RouteErrorBoundary resetKey={location.pathname} alongsideError={<ScreenAlive />}>
      <Suspense fallback={<RouteLoading />}>
        <Outlet />
        <ScreenAlive />
      </Suspense>
    </RouteErrorBoundary>
  );
});

/**
 * Starts the browser once the screen is on screen as the client's (RootStore.startBrowser; a no-op after the first).
 * A page the server drew hydrates its shell first and the screen's Suspense boundary after it, in a pass of its own:
 * the page is alive, and its controls are let go (src/app/AppTree.tsx), only once the screen's handlers are there. It
 * sits beside the route's error message too, so a screen that fails still leaves the page alive.
 */
function ScreenAlive() {
  const root = useStores();
  useEffect(() => root.startBrowser(), [root]);
  return null;
}

/** A new page starts at the top; back and forward keep the browser's own scroll restoration. */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const type = useNavigationType();
  useLayoutEffect(() => {
    if (type !== 'POP' && !hash) window.scrollTo(0, 0);
  }, [pathname, hash, type]);
  return null;
}

/** How long after a navigation the new screen may take to draw its heading (a lazy chunk, its first reads). */
const ROUTE_FOCUS_WAIT_MS = 5000;

/**
 * After each navigation to a new path, keyboard and screen-reader focus moves to the new screen's main heading (or
 * to the main landmark when it has none), instead of dropping to <body> where a screen reader announces nothing.
 * A screen that puts focus somewhere inside itself (an error summary, a field) or opens a dialog keeps it. The first
 * page load is left alone: the browser starts at the top of the document, with the skip link first.
 */
function RouteFocus() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById('main');
    if (!main) return;
    let placed: HTMLElement | null = null;
    const place = () => {
      const active = document.activeElement as HTMLElement | null;
      const lost = active === null || active === document.body;
      // Placed once: only a heading that the screen replaced (focus fell to <body>) is followed again.
      if (placed && (placed.isConnected || !lost)) return;
      // Focus the screen gave itself, or a dialog, wins.
      if (!lost && active !== main && main.contains(active)) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"], dialog[open]')) return;
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading) return;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      placed = heading;
    };
    place();
    // The heading may arrive later (a lazy screen, a loading status first) or be replaced as the screen loads.
    const observer = new MutationObserver(place);
    observer.observe(main, { childList: true, subtree: true });
    const stop = setTimeout(() => {
      observer.disconnect();
      if (!placed && (document.activeElement === document.body || document.activeElement === null)) main.focus({ preventScroll: true });
    }, ROUTE_FOCUS_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(stop);
    };
  }, [pathname]);
  return null;
}

/** Header, main landmark, footer, skip link and the modals host around every screen. */
export const AppShell = observer(function AppShell() {
  const { t } = useTranslation();
  const { staff } = useStores();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skipLink')}
      </a>
      {staff && (
        <Suspense fallback={null}>
          <StaffBar />
        </Suspense>
      )}
      <Header />
      <ReloadBanner />
      <main id="main" tabIndex={-1}>
        <GuardedOutlet />
      </main>
      <Footer />
      <ModalsHost />
      <SessionWatcher />
      <ScrollToTop />
      <RouteFocus />
    </>
  );
});

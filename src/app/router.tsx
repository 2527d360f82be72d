import { createBrowserRouter, redirect, replace, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { RootStore } from '../stores/RootStore';
import type { RouteName } from '../domain/content-blocks';
import { basenameFor, stripSellerPrefix } from '../domain/paths';
import { isExternalTarget } from '../domain/guards';
import { redirectFor } from './redirects';
import { AppShell } from './AppShell';
import { accountRoutes } from './account-routes';
import { RouteError, RouteLoading } from './RouteStates';
import { loginPathOf, readOtpLink, type AuthConfig } from '../domain/login';

export interface RouteHandle { routeName: RouteName }

const handle = (routeName: RouteName): RouteHandle => ({ routeName });

/** The route table. Every screen is its own chunk so the events listing loads only what it draws. The
 *  optional seller slug is the router basename (boot decides it), so routes and links stay prefix-free. */
export function createRoutes(root: RootStore): RouteObject[] {
  const { config } = root;

  const loginPath = loginPathOf(config.storefront.auth as AuthConfig | undefined);

  const guardLoader = ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const appPath = stripSellerPrefix(url.pathname, config.sellerPrefix);
    // Guard 3 for /my itself runs in its screen (MyIndex): loaders never see the hash it must keep.
    if (appPath === '/my') return null;
    const target = redirectFor({ pathname: appPath, search: url.search, hash: url.hash }, {
      redirect: config.storefront.redirect,
      home: config.storefront.home,
      hasSellerPrefix: config.sellerPrefix !== null,
      isActiveMember: root.isActiveMember,
    });
    if (target) throw isExternalTarget(target) ? redirect(target) : replace(target);
    return null;
  };

  const homeLoader = ({ request }: LoaderFunctionArgs) => {
    // A one-time link to a login path of '/' is the login callback: it must not be redirected away.
    if (loginPath === '/' && readOtpLink(new URL(request.url).search)) return null;
    // Spec section 2: without membership presell the home route is the admission event.
    if (!config.membershipPresell) throw replace(config.admissionEventId ? `/events/${config.admissionEventId}` : '/events');
    return null;
  };

  const eventDetail = async () => ({ Component: (await import('../screens/event-detail/EventDetailScreen')).EventDetailScreen });

  return [
    {
      id: 'root',
      path: '/',
      Component: AppShell,
      HydrateFallback: RouteLoading,
      ErrorBoundary: RouteError,
      loader: guardLoader,
      // Guards must see every navigation, not only the ones that change the root's params.
      shouldRevalidate: () => true,
      children: [
        { index: true, handle: handle('home'), loader: homeLoader,
          lazy: async () => ({ Component: (await import('../screens/home/HomeScreen')).HomeScreen }) },
        { path: 'events', handle: handle('events'),
          lazy: async () => ({ Component: (await import('../screens/events/EventsScreen')).EventsScreen }) },
        { path: 'events/:eventId', handle: handle('event-detail'), lazy: eventDetail },
        { path: 'events/:eventId/:action', handle: handle('event-detail'), lazy: eventDetail },
        { path: 'checkout/complete', handle: handle('completion'),
          lazy: async () => ({ Component: (await import('../screens/completion/CompletionScreen')).CompletionScreen }) },
        { path: 'checkout/:cartId?', handle: handle('checkout'),
          lazy: async () => ({ Component: (await import('../screens/checkout/CheckoutScreen')).CheckoutScreen }) },
        ...accountRoutes(root),
        ...(loginPath === '/' ? [] : [{ path: loginPath.slice(1), handle: handle('account'),
          lazy: async () => ({ Component: (await import('../screens/login/LoginCallbackScreen')).LoginCallbackScreen }) }]),
        { path: 'logout', lazy: async () => ({ Component: (await import('../screens/login/LogoutScreen')).LogoutScreen }) },
        { path: '*', handle: handle('not-found'),
          lazy: async () => ({ Component: (await import('../screens/not-found/NotFoundScreen')).NotFoundScreen }) },
      ],
    },
  ];
}

/** react-router 7 data mode. Its v7 future flags are defaults now and the v8 flags it ships
 *  (v8_middleware, v8_passThroughRequests, v8_trailingSlashAwareDataRequests) are framework-mode options:
 *  createBrowserRouter's FutureConfig is empty in 7.18, so there is nothing left to switch on here. */
export function createAppRouter(root: RootStore) {
  return createBrowserRouter(createRoutes(root), { basename: basenameFor(root.config.sellerPrefix) });
}

import { Navigate, Route, Routes, useLocation } from 'react-router';
import { observer } from 'mobx-react-lite';
import { useStores } from '../stores/context';
import { loginPathOf, readOtpLink, type AuthConfig } from '../domain/auth-config';
import { homeRedirectTarget } from '../domain/paths';
import { upsellStorageKeys } from '../domain/upsell-storage';
import { AppShell } from './AppShell';
import { CheckoutScreen, EventDetailScreen, EventsScreen, HomeScreen, NotFoundScreen, screen } from './screens';

/** The chain's listing on its own, for /events opened with a chain already under way (a reload, a new tab). */
const UpsellListingScreen = screen(() => import('../screens/events/UpsellListing'), 'UpsellListing');

/** Whether this browser keeps an upsell chain for the seller (its listing checks that it still runs). */
export function upsellChainStored(sellerId: string): boolean {
  try {
    return typeof window !== 'undefined' && window.localStorage.getItem(upsellStorageKeys(sellerId)[0]) !== null;
  } catch {
    return false;
  }
}

/**
 * /events: the listing, or an upsell chain's (UiStore.upsellListing, brought by the event page where a chain starts;
 * or, when the page opens on /events with a chain stored, its own chunk). The chain's listing draws the ordinary
 * listing when no chain runs.
 */
const EventsRoute = observer(function EventsRoute() {
  const { ui, config } = useStores();
  const Upsells = ui.upsellListing ?? (upsellChainStored(config.seller.id) ? UpsellListingScreen : null);
  return Upsells ? <Upsells /> : <EventsScreen />;
});

const CompletionScreen = screen(() => import('../screens/completion/CompletionScreen'), 'CompletionScreen');
const LoginCallbackScreen = screen(() => import('../screens/login/LoginCallbackScreen'), 'LoginCallbackScreen');
const LogoutScreen = screen(() => import('../screens/login/LogoutScreen'), 'LogoutScreen');
const ResendScreen = screen(() => import('../screens/resend/ResendScreen'), 'ResendScreen');
const ManageScreen = screen(() => import('../screens/manage/ManageScreen'), 'ManageScreen');
const RescheduleScreen = screen(() => import('../screens/manage/RescheduleScreen'), 'RescheduleScreen');
const ManageConfirmScreen = screen(() => import('../screens/manage/ManageConfirmScreen'), 'ManageConfirmScreen');
const PendingScreen = screen(() => import('../screens/checkout/PendingScreen'), 'PendingScreen');
const TransferCartScreen = screen(() => import('../screens/transfer-cart/TransferCartScreen'), 'TransferCartScreen');
const MembershipArea = screen(() => import('../screens/membership/MembershipScreens'), 'MembershipArea');
const StaffLoginScreen = screen(() => import('../screens/staff/StaffLoginScreen'), 'StaffLoginScreen');
const AccountArea = screen(() => import('./AccountRoutes'), 'AccountArea');
const RecoveryArea = screen(() => import('./AccountRoutes'), 'RecoveryArea');

/** Spec section 2: without membership presell the home route is the admission event (decided before the home
 *  screen's code loads). A one-time link to a login path of '/' is the login callback and stays. */
const HomeRoute = observer(function HomeRoute() {
  const { config } = useStores();
  const { search } = useLocation();
  const loginPath = loginPathOf(config.storefront.auth as AuthConfig | undefined);
  const isCallback = loginPath === '/' && readOtpLink(search);
  const target = homeRedirectTarget({ ...config.storefront, flags: config.flags });
  if (target && !isCallback) return <Navigate to={target} replace />;
  return <HomeScreen />;
});

/**
 * The route table (react-router declarative mode: the storefront loads its data through MobX stores, so the
 * data router's loaders would only add ~17 KB gzipped to every page). Guards 1-3 and the trailing-slash rule
 * run in AppShell before any screen renders. The optional seller slug is the router basename (main.tsx).
 */
export const AppRoutes = observer(function AppRoutes() {
  const { config } = useStores();
  const loginPath = loginPathOf(config.storefront.auth as AuthConfig | undefined);
  return (
    <Routes>
      <Route path="/" element={<AppShell />}>
        <Route index element={<HomeRoute />} />
        <Route path="events" element={<EventsRoute />} />
        <Route path="events/:eventId" element={<EventDetailScreen />} />
        <Route path="events/:eventId/:action" element={<EventDetailScreen />} />
        <Route path="checkout/complete" element={<CompletionScreen />} />
        <Route path="checkout/pending/:cartId" element={<PendingScreen />} />
        <Route path="checkout/:cartId?" element={<CheckoutScreen />} />
        <Route path="transfer-cart/:cartId" element={<TransferCartScreen />} />
        <Route path="my/*" element={<AccountArea />} />
        <Route path="user/*" element={<RecoveryArea />} />
        <Route path="resend" element={<ResendScreen />} />
        <Route path="manage/:id" element={<ManageScreen />} />
        <Route path="manage/:id/cancel-auto-renew" element={<MembershipArea />} />
        <Route path="manage/:id/reschedule/:sessionId" element={<RescheduleScreen />} />
        <Route path="manage/:id/confirm" element={<ManageConfirmScreen />} />
        <Route path="membership/*" element={<MembershipArea />} />
        {loginPath !== '/' && <Route path={loginPath.slice(1)} element={<LoginCallbackScreen />} />}
        <Route path="logout" element={<LogoutScreen />} />
        <Route path="_staff" element={<StaffLoginScreen />} />
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
});

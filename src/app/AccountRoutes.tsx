import type { ComponentType, ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { useSessionSettled } from '../stores/session-settled';
import { enabledAccountPages, type AccountPage } from '../domain/account-pages';
import { NotFoundScreen, screen } from './screens';

const AccountLayout = screen(() => import('../screens/account/AccountLayout'), 'AccountLayout');
const MyIndex = screen(() => import('../screens/account/MyIndex'), 'MyIndex');
const MembershipPage = screen(() => import('../screens/account/MembershipPage'), 'MembershipPage');
const ProfilePage = screen(() => import('../screens/account/ProfilePage'), 'ProfilePage');
const UpcomingPage = screen(() => import('../screens/account/UpcomingPage'), 'UpcomingPage');
const VisitPage = screen(() => import('../screens/account/VisitPage'), 'VisitPage');
const OrdersPage = screen(() => import('../screens/account/OrdersPage'), 'OrdersPage');
const OrderPage = screen(() => import('../screens/account/OrderPage'), 'OrderPage');
const ForgotMembershipScreen = screen(() => import('../screens/recovery/EmailRequestScreen'), 'ForgotMembershipScreen');
const ForgotPasswordScreen = screen(() => import('../screens/recovery/EmailRequestScreen'), 'ForgotPasswordScreen');
const CreateAccountScreen = screen(() => import('../screens/recovery/EmailRequestScreen'), 'CreateAccountScreen');
const SignUpScreen = screen(() => import('../screens/recovery/SignUpScreen'), 'SignUpScreen');
const ResetPasswordScreen = screen(() => import('../screens/recovery/ResetPasswordScreen'), 'ResetPasswordScreen');
const SetEmailScreen = screen(() => import('../screens/recovery/SetEmailScreen'), 'SetEmailScreen');

/** Spec section 6: the password reset and forgot pages send a logged-in user to /. */
const LoggedOutOnly = observer(function LoggedOutOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { session } = useStores();
  if (!useSessionSettled(session))
    return (
      <p className="page-status" role="status">
        {t('app.loading')}
      </p>
    );
  return session.isLoggedIn ? <Navigate to="/" replace /> : children;
});

/** /my/*: the account area (spec section 2). Its code, like every page in it, loads on the first visit. */
export const AccountArea = observer(function AccountArea() {
  // Spec section 2: config my_account_pages gates the sidebar's pages; a page it leaves out is not there.
  const { config } = useStores();
  const pages = enabledAccountPages(config.storefront.my_account_pages);
  const page = (Page: ComponentType, gate?: AccountPage) => (!gate || pages.has(gate) ? <Page /> : <NotFoundScreen />);
  return (
    <Routes>
      <Route element={<AccountLayout />}>
        <Route index element={<MyIndex />} />
        <Route path="membership" element={page(MembershipPage)} />
        <Route path="profile" element={page(ProfilePage, 'my_profile')} />
        <Route path="upcoming" element={page(UpcomingPage, 'upcoming_events')} />
        <Route path="upcoming/session/:id" element={page(VisitPage, 'upcoming_events')} />
        <Route path="orders" element={page(OrdersPage, 'recent_orders')} />
        <Route path="orders/:id" element={page(OrderPage, 'recent_orders')} />
      </Route>
      <Route path="*" element={<NotFoundScreen />} />
    </Routes>
  );
});

/** /user/*: recovery screens (spec sections 2 and 6). */
export function RecoveryArea() {
  return (
    <Routes>
      <Route
        path="forgot-membership"
        element={
          <LoggedOutOnly>
            <ForgotMembershipScreen />
          </LoggedOutOnly>
        }
      />
      <Route
        path="forgot-password"
        element={
          <LoggedOutOnly>
            <ForgotPasswordScreen />
          </LoggedOutOnly>
        }
      />
      <Route
        path="create-account"
        element={
          <LoggedOutOnly>
            <CreateAccountScreen />
          </LoggedOutOnly>
        }
      />
      {/* Sends a logged-in visitor on itself: the login that ends a sign-up must not race a redirect home. */}
      <Route path="sign-up" element={<SignUpScreen />} />
      <Route
        path="reset-password"
        element={
          <LoggedOutOnly>
            <ResetPasswordScreen />
          </LoggedOutOnly>
        }
      />
      <Route path="set-email-address" element={<SetEmailScreen />} />
      <Route path="*" element={<NotFoundScreen />} />
    </Routes>
  );
}

import { replace, type RouteObject } from 'react-router';
import type { RootStore } from '../stores/RootStore';
import { sessionSettled } from '../screens/account/account-context';
import { enabledAccountPages, type AccountPage } from '../screens/account/views';

const account = { routeName: 'account' as const };

/** Routes of the account area, recovery and resend screens (spec section 2), spread into the route table. */
export function accountRoutes(root: RootStore): RouteObject[] {
  const { session, config } = root;

  /** Spec section 6: the password reset and forgot pages send a logged-in user to /. */
  const loggedOutOnly = async () => {
    await sessionSettled(session);
    if (session.isLoggedIn) throw replace('/');
    return null;
  };

  // Spec section 2: config my_account_pages gates the sidebar's pages; a page it leaves out is not there.
  const pages = enabledAccountPages(config.storefront.my_account_pages);
  const accountPage = (path: string, load: () => Promise<RouteObject['Component']>, page?: AccountPage): RouteObject => ({
    path, handle: account,
    lazy: async () => ({ Component: !page || pages.has(page)
      ? await load() : (await import('../screens/not-found/NotFoundScreen')).NotFoundScreen }),
  });

  return [
    {
      path: 'my',
      handle: account,
      lazy: async () => ({ Component: (await import('../screens/account/AccountLayout')).AccountLayout }),
      children: [
        { index: true, handle: account, lazy: async () => ({ Component: (await import('../screens/account/MyIndex')).MyIndex }) },
        accountPage('membership', async () => (await import('../screens/account/MembershipPage')).MembershipPage),
        accountPage('profile', async () => (await import('../screens/account/ProfilePage')).ProfilePage, 'my_profile'),
        accountPage('upcoming', async () => (await import('../screens/account/UpcomingPage')).UpcomingPage, 'upcoming_events'),
        accountPage('upcoming/session/:id', async () => (await import('../screens/account/VisitPage')).VisitPage, 'upcoming_events'),
        accountPage('orders', async () => (await import('../screens/account/OrdersPage')).OrdersPage, 'recent_orders'),
        accountPage('orders/:id', async () => (await import('../screens/account/OrderPage')).OrderPage, 'recent_orders'),
      ],
    },
    { path: 'user/forgot-membership', handle: account, loader: loggedOutOnly,
      lazy: async () => ({ Component: (await import('../screens/recovery/EmailRequestScreen')).ForgotMembershipScreen }) },
    { path: 'user/forgot-password', handle: account, loader: loggedOutOnly,
      lazy: async () => ({ Component: (await import('../screens/recovery/EmailRequestScreen')).ForgotPasswordScreen }) },
    { path: 'user/reset-password', handle: account, loader: loggedOutOnly,
      lazy: async () => ({ Component: (await import('../screens/recovery/ResetPasswordScreen')).ResetPasswordScreen }) },
    { path: 'user/set-email-address', handle: account,
      lazy: async () => ({ Component: (await import('../screens/recovery/SetEmailScreen')).SetEmailScreen }) },
    { path: 'resend', handle: account,
      lazy: async () => ({ Component: (await import('../screens/resend/ResendScreen')).ResendScreen }) },
  ];
}

import { Suspense } from 'react';
import { ScreenSections } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { Link, NavLink, Outlet, useMatch } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { AccountProvider, useNewAccountStore } from './account-context';
import { AccountLogin } from './AccountLogin';
import { MyIndex } from './MyIndex';
import { enabledAccountPages } from '../../domain/account-pages';
import { RouteLoading } from '../../app/RouteStates';
import './account.css';

/** The account area (spec section 2): a sidebar of the pages the config enables and the page beside it.
 *  Not logged in, it shows the login form instead. */
export const AccountLayout = observer(function AccountLayout() {
  const { t } = useTranslation();
  const { session, config } = useStores();
  const store = useNewAccountStore();
  const atMy = useMatch('/my') !== null;

  // Guard 3 applies to every visitor, logged in or not.
  if (atMy) return <MyIndex />;
  if (session.status !== 'ready')
    return (
      <p className="page-status" role="status">
        {t('app.loading')}
      </p>
    );
  if (!session.isLoggedIn) return <AccountLogin />;

  const pages = enabledAccountPages(config.storefront.my_account_pages);
  const link = ({ isActive }: { isActive: boolean }) => (isActive ? 'account-nav__link account-nav__link--active' : 'account-nav__link');
  const tickets = pages.has('upcoming_events') || pages.has('recent_orders');
  return (
    <AccountProvider store={store}>
      <div className="container page account-page">
        <nav className="account-nav" aria-label={t('account.navLabel')}>
          <ul className="account-nav__list">
            {session.hasMembership && (
              <li>
                <NavLink className={link} to="/my/membership">
                  {t('account.nav.membership')}
                </NavLink>
              </li>
            )}
            {pages.has('my_profile') && (
              <li>
                <NavLink className={link} to="/my/profile">
                  {t('account.nav.profile')}
                </NavLink>
              </li>
            )}
            {tickets && (
              <li>
                <span className="account-nav__group" id="account-nav-tickets">
                  {t('account.nav.tickets')}
                </span>
                <ul className="account-nav__sublist" aria-labelledby="account-nav-tickets">
                  {pages.has('upcoming_events') && (
                    <li>
                      <NavLink className={link} to="/my/upcoming">
                        {t('account.nav.upcoming')}
                      </NavLink>
                    </li>
                  )}
                  {pages.has('recent_orders') && (
                    <li>
                      <NavLink className={link} to="/my/orders">
                        {t('account.nav.orders')}
                      </NavLink>
                    </li>
                  )}
                </ul>
              </li>
            )}
            <li>
              <Link className="account-nav__link" to="/logout">
                {t('account.nav.logout')}
              </Link>
            </li>
          </ul>
        </nav>
        <div className="account-page__content">
          <ScreenSections
            screen="account"
            sections={{
              page: () => (
                <Suspense fallback={<RouteLoading />}>
                  <Outlet />
                </Suspense>
              ),
            }}
          />
        </div>
      </div>
    </AccountProvider>
  );
});

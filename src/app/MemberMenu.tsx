import { Suspense } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { authConfigOf, parseMethod } from '../domain/auth-config';
import { screen } from './screens';

const LoggedInMenu = screen(() => import('./LoggedInMenu'), 'LoggedInMenu');

/** Header, spec section 2: the member menu (greeting, my account or membership details, log out) or the
 *  register and login links. 'Log in' opens the login dialog. Neither while a page that may be a member's does not
 *  know yet whose it is (SessionStore.awaitingMember). */
export const MemberMenu = observer(function MemberMenu() {
  const { t } = useTranslation();
  const { session, ui, config } = useStores();
  const method = parseMethod(authConfigOf(config.storefront).method ?? 'password');
  const membershipEventId = typeof config.storefront.membership_event_id === 'string' ? config.storefront.membership_event_id : null;
  if (session.isLoggedIn)
    return (
      <Suspense fallback={null}>
        <LoggedInMenu />
      </Suspense>
    );
  if (method === 'none' || session.awaitingMember) return null;
  return (
    <nav className="header-links" aria-label={t('header.accountNav')}>
      {membershipEventId && <Link to={`/events/${membershipEventId}`}>{t('header.register')}</Link>}
      <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={() => ui.openModal('login')}>
        {t('header.login')}
      </button>
    </nav>
  );
});

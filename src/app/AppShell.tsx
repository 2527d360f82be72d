import { observer } from 'mobx-react-lite';
import { Link, Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { imageUrl } from '../api/client';
import { ModalsHost } from './ModalsHost';
import { MemberMenu } from './MemberMenu';
import { SessionWatcher } from './SessionWatcher';

const LOGO_HEIGHT = 48;

export const Header = observer(function Header() {
  const { t } = useTranslation();
  const { config } = useStores();
  const logoId = config.logoImageId;
  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className={logoId ? 'brand brand--with-logo' : 'brand'} aria-label={t('header.homeLink', { name: config.seller.name })}>
          {logoId && (
            <img className="brand__logo" alt="" height={LOGO_HEIGHT}
              src={imageUrl(config.deployment.apiBaseUrl, logoId, { width: LOGO_HEIGHT * 8, height: LOGO_HEIGHT * 2 })} />
          )}
          <span className="brand__name">{config.seller.name}</span>
        </Link>
        <MemberMenu />
      </div>
    </header>
  );
});

export const Footer = observer(function Footer() {
  const { t } = useTranslation();
  const { config } = useStores();
  return (
    <footer className="site-footer">
      <div className="container">
        <p>{t('footer.copyright', { year: new Date().getFullYear(), name: config.seller.name })}</p>
      </div>
    </footer>
  );
});

/** Header, main landmark, footer, skip link and the modals host around every screen. */
export function AppShell() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <>
      <a className="skip-link" href="#main">{t('app.skipLink')}</a>
      <Header />
      <main id="main" tabIndex={-1} aria-busy={navigation.state === 'loading' || undefined}>
        <Outlet />
      </main>
      <Footer />
      <ModalsHost />
      <SessionWatcher />
      <ScrollRestoration />
    </>
  );
}

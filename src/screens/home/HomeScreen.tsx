import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { ScreenSections } from '../../components/ScreenSections';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { homeOptions, type HomeOption } from '../../domain/home';
import { authConfigOf, loginPathOf, parseMethod, readOtpLink } from '../../domain/auth-config';
import { passwordLogin } from '../../domain/sign-up';
import { LoginCallbackScreen } from '../login/LoginCallbackScreen';
import '../../styles/login.css';

/**
 * Home with membership presell on (spec section 2): login, join membership and continue as guest in the
 * configured order, and the link to resend tickets. A logged-in user is sent to events. (Presell off never
 * renders this: the route redirects.)
 */
export const HomeScreen = observer(function HomeScreen() {
  const { t } = useTranslation();
  const { config, session } = useStores();
  const { search } = useLocation();
  const title = t('home.title', { name: config.seller.name });
  useDocumentTitle(title);
  const auth = authConfigOf(config.storefront);
  if (loginPathOf(auth) === '/' && readOtpLink(search)) return <LoginCallbackScreen />;
  if (session.isLoggedIn) return <Navigate to="/events" replace />;

  const options = homeOptions(config.storefront.home?.options_order, {
    loginEnabled: parseMethod(auth.method ?? 'password') !== 'none',
    membershipEventId: typeof config.storefront.membership_event_id === 'string' ? config.storefront.membership_event_id : null,
  });
  return (
    <div className="container page home">
      <ScreenSections
        screen="home"
        sections={{
          heading: () => <h1 className="page-title">{title}</h1>,
          options: () => (
            <ul className="home-options" aria-label={t('home.optionsLabel')}>
              {options.map((option) => (
                <li key={option.kind} className="home-option">
                  <HomeOptionCard option={option} />
                </li>
              ))}
            </ul>
          ),
          resend: () => (
            <p className="home-resend">
              <Link to="/resend">{t('home.resend')}</Link>
            </p>
          ),
        }}
      />
    </div>
  );
});

const HomeOptionCard = observer(function HomeOptionCard({ option }: { option: HomeOption }) {
  const { t } = useTranslation();
  const { ui, config } = useStores();
  const passwords = passwordLogin(config.storefront);
  const titleId = useId();
  const heading = <h2 id={titleId}>{t(`home.${option.kind}`)}</h2>;
  const text = <p>{t(`home.${option.kind}Text`)}</p>;
  switch (option.kind) {
    case 'login':
      return (
        <>
          {heading}
          {text}
          <button
            type="button"
            className="button"
            aria-haspopup="dialog"
            aria-describedby={titleId}
            onClick={() => ui.openModal('login', { next: '/events' })}
          >
            {t('header.login')}
          </button>
          {passwords && (
            <p className="home-option__sign-up">
              {t('recovery.signUp.prompt')}{' '}
              <Link to="/user/sign-up" state={{ from: '/events' }}>
                {t('recovery.signUp.link')}
              </Link>
            </p>
          )}
        </>
      );
    case 'join':
      return (
        <>
          {heading}
          {text}
          <Link className="button" to={option.to} aria-describedby={titleId}>
            {t('home.join')}
          </Link>
        </>
      );
    case 'guest':
      return (
        <>
          {heading}
          {text}
          <Link className="button" to={option.to} aria-describedby={titleId}>
            {t('home.guest')}
          </Link>
        </>
      );
  }
});

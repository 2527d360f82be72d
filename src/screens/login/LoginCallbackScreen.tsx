import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { LoginForm } from '../../components/login/LoginForm';
import { readOtpLink, withoutOtpParams } from '../../domain/auth-config';

/** Where to go after logging in here: the `next` query path (same site only), else events. */
function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/events';
}

/**
 * The login callback at the configured login path (spec section 2): a one-time link lands here with
 * ?otp=...&token=...; both are read once and removed from the address before anything else happens.
 */
export const LoginCallbackScreen = observer(function LoginCallbackScreen() {
  const { t } = useTranslation();
  const { session } = useStores();
  const location = useLocation();
  const navigate = useNavigate();
  // Read once: the address is cleaned right away, the link lives on in state.
  const [link] = useState(() => readOtpLink(location.search));
  const title = t('login.title');
  useDocumentTitle(title);

  const hasParams = readOtpLink(location.search) !== null;
  useEffect(() => {
    // The code must not stay in the address bar, history or a shared screenshot.
    if (hasParams)
      navigate({ pathname: location.pathname, search: withoutOtpParams(location.search), hash: location.hash }, { replace: true });
  }, [hasParams, location.pathname, location.search, location.hash, navigate]);

  if (session.isLoggedIn && !link) return <Navigate to={nextPath(location.search)} replace />;
  return (
    <div className="container page login-page">
      <h1 className="page-title">{title}</h1>
      <LoginForm link={link} onSuccess={() => navigate(nextPath(location.search), { replace: true })} />
    </div>
  );
});

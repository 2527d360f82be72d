import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { LoginFlowStore } from '../../stores/LoginFlowStore';
import { useScreenStore } from '../../stores/lifecycle';
import { acceptsPasswords } from '../../domain/sign-up';
import {
  authConfigOf,
  externalLoginTarget,
  isExternalMethod,
  parseMethod,
  type AuthConfig,
  usesOidc,
  type LoginMethod,
} from '../../domain/auth-config';
import { CredentialsStep, EmailStep, OtpStep, OtpUnavailableStep, PasswordStep } from './LoginSteps';
import '../../styles/login.css';

export interface LoginFormProps {
  /** Called once the session is established (the dialog closes, the callback page moves on). */
  onSuccess?: () => void;
  /** Following a link inside the form (forgot password) — a dialog closes itself. */
  onNavigate?: () => void;
  /** The one-time link's code and token, read from the address by the login callback route. */
  link?: { otp: string; token: string } | null;
}

function cookiesEnabled(): boolean {
  return typeof navigator === 'undefined' || navigator.cookieEnabled !== false;
}

/** The login form for the mode the seller config chose (spec section 2, "Login modes by config"). */
export const LoginForm = observer(function LoginForm({ onSuccess, onNavigate, link }: LoginFormProps) {
  const { t } = useTranslation();
  const { config } = useStores();
  const auth = authConfigOf(config.storefront);
  const method = parseMethod(auth.method ?? 'password');
  const authError = new URLSearchParams(useLocation().search).has('auth_error');
  let problem: string | null = null;
  if (!method) problem = 'login.unknownMethod';
  else if (method === 'none') problem = 'login.disabled';
  else if (!cookiesEnabled()) problem = 'login.cookiesDisabled';
  if (problem || !method) {
    return (
      <div className="login-form">
        <p className="notice--error" role="alert">
          {t(problem ?? 'login.unknownMethod')}
        </p>
      </div>
    );
  }
  if (isExternalMethod(method)) {
    // sf_ecomm's own return, and single sign-on's (GET sso/callback sends its failures back with auth_error).
    return <ExternalLogin method={method} auth={auth} authError={(method === 'sf_ecomm' || usesOidc(method, auth)) && authError} />;
  }
  return <LoginFlowForm method={method} auth={auth} onSuccess={onSuccess} onNavigate={onNavigate} link={link} />;
});

/** auth0_ecomm, sf_ecomm, hosted and sso have no fields here: a link to where the login happens. */
const ExternalLogin = observer(function ExternalLogin({
  method,
  auth,
  authError,
}: {
  method: LoginMethod;
  auth: AuthConfig;
  authError: boolean;
}) {
  const { t } = useTranslation();
  const { config, cart } = useStores();
  const location = useLocation();
  const returnTo = typeof window !== 'undefined' ? `${window.location.origin}${window.location.pathname}` : location.pathname;
  const target = externalLoginTarget(method, auth, {
    apiBaseUrl: config.deployment.apiBaseUrl,
    returnTo,
    cartId: cart.cartId,
    seller: config.seller.slug,
  });
  return (
    <div className="login-form">
      {authError && (
        <p className="notice--error" role="alert">
          {t('login.errors.sfecFailed')}
        </p>
      )}
      {'url' in target ? (
        <>
          <p>{t('login.externalText')}</p>
          <a className="button" href={target.url}>
            {t('login.external')}
          </a>
        </>
      ) : (
        <p className="notice--error" role="alert">
          {t(target.errorKey)}
        </p>
      )}
    </div>
  );
});

interface FlowProps extends LoginFormProps {
  method: LoginMethod;
  auth: AuthConfig;
}

/** The in-page modes: a LoginFlowStore per form, and the step it is on. */
const LoginFlowForm = observer(function LoginFlowForm({ method, auth, onSuccess, onNavigate, link }: FlowProps) {
  const { session } = useStores();
  // The form's store is made once; the newest callback is the one it calls.
  const [onSuccessRef] = useState(() => ({ current: onSuccess }));
  useEffect(() => {
    onSuccessRef.current = onSuccess;
  });
  const flow = useScreenStore(
    () =>
      new LoginFlowStore({
        session,
        method,
        invalidCredentialsText: auth.invalid_credentials_text,
        onSuccess: () => onSuccessRef.current?.(),
      }),
    [],
  );
  useEffect(() => {
    if (link) void flow.loginWithLink(link, cookiesEnabled());
  }, [flow, link]);

  const props = { flow, showForgotPassword: auth.show_forgot_password !== false, onNavigate };
  return (
    <div className="login-form" data-step={flow.step}>
      {flow.step === 'credentials' && <CredentialsStep {...props} />}
      {flow.step === 'email' && <EmailStep {...props} />}
      {flow.step === 'password' && <PasswordStep {...props} />}
      {flow.step === 'otp_form' && <OtpStep {...props} />}
      {flow.step === 'otp_unavailable' && <OtpUnavailableStep {...props} />}
      {acceptsPasswords(method) && <SignUpLink onNavigate={onNavigate} />}
    </div>
  );
});

/** 'New here? Create an account' (issue 13): sign-up with a password, returning to this page afterwards. */
export function SignUpLink({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  return (
    <p className="login-form__sign-up">
      {t('recovery.signUp.prompt')}{' '}
      <Link to="/user/sign-up" state={{ from: `${pathname}${search}` }} onClick={onNavigate}>
        {t('recovery.signUp.link')}
      </Link>
    </p>
  );
}

import { observer } from 'mobx-react-lite';
import { useEffect, useRef, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LoginFlowStore } from '../../stores/LoginFlowStore';
import { LoginInput } from './LoginField';
import { LoginAlert } from './LoginMessageText';

interface StepProps {
  flow: LoginFlowStore;
  showForgotPassword: boolean;
  onNavigate?: () => void;
}

const submitWith = (action: () => Promise<void>) => (event: FormEvent) => {
  event.preventDefault();
  void action();
};

/** Moves focus to the first field when a step appears, so keyboard and screen reader users follow the flow. */
function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}

const SubmitButton = observer(function SubmitButton({ flow, label }: { flow: LoginFlowStore; label: string }) {
  return (
    <button type="submit" className="button" disabled={flow.submitting} aria-busy={flow.submitting || undefined}>
      {label}
    </button>
  );
});

/** password, scan_code, scan_code_password, scan_code_last_name: every field on one form. */
export const CredentialsStep = observer(function CredentialsStep({ flow, showForgotPassword, onNavigate }: StepProps) {
  const { t } = useTranslation();
  const memberId = flow.method.startsWith('scan_code');
  return (
    <form className="login-form__step" noValidate onSubmit={submitWith(flow.submitCredentials)}>
      {flow.fields.map((field) => (
        <LoginInput key={field} flow={flow} field={field} />
      ))}
      <LoginAlert error={flow.error} notes={flow.notes} />
      <div className="login-form__actions">
        <SubmitButton flow={flow} label={t('login.submit')} />
        {flow.method === 'password' && showForgotPassword && (
          <Link to="/user/forgot-password" onClick={onNavigate}>
            {t('login.forgotPassword')}
          </Link>
        )}
        {memberId && (
          <Link to="/user/forgot-membership" onClick={onNavigate}>
            {t('login.forgotMembership')}
          </Link>
        )}
      </div>
    </form>
  );
});

/** otp and otp_or_password: the email, then a one-time link and passcode (or, with otp_or_password, the password). */
export const EmailStep = observer(function EmailStep({ flow }: StepProps) {
  const { t } = useTranslation();
  const first = useFocusOnMount<HTMLInputElement>();
  return (
    <form className="login-form__step" noValidate onSubmit={submitWith(() => flow.submitEmail('otp'))}>
      <p>{t(flow.offersPassword ? 'login.emailStep.introWithPassword' : 'login.emailStep.intro')}</p>
      <LoginInput flow={flow} field="username" inputRef={first} />
      <LoginAlert error={flow.error} notes={flow.notes} />
      <div className="login-form__actions">
        <SubmitButton flow={flow} label={t('login.emailStep.sendCode')} />
        {flow.offersPassword && (
          <button
            type="button"
            className="button button--secondary"
            disabled={flow.submitting}
            onClick={() => void flow.submitEmail('password')}
          >
            {t('login.emailStep.usePassword')}
          </button>
        )}
      </div>
    </form>
  );
});

/** Spec section 2: the entered email, a password field, the optional forgot-password link, log in and back. */
export const PasswordStep = observer(function PasswordStep({ flow, showForgotPassword, onNavigate }: StepProps) {
  const { t } = useTranslation();
  const first = useFocusOnMount<HTMLInputElement>();
  return (
    <form className="login-form__step" noValidate onSubmit={submitWith(flow.submitCredentials)}>
      <p className="login-form__email">{t('login.passwordStep.email', { email: flow.email })}</p>
      <LoginInput flow={flow} field="password" inputRef={first} />
      <LoginAlert error={flow.error} notes={flow.notes} />
      <div className="login-form__actions">
        <SubmitButton flow={flow} label={t('login.submit')} />
        <button type="button" className="button button--secondary" onClick={flow.back}>
          {t('login.back')}
        </button>
      </div>
      {showForgotPassword && (
        <p>
          <Link to="/user/forgot-password" onClick={onNavigate}>
            {t('login.forgotPassword')}
          </Link>
        </p>
      )}
    </form>
  );
});

/** The 6-character passcode; after 3 wrong tries (or an expired link) only a new passcode helps. */
export const OtpStep = observer(function OtpStep({ flow }: StepProps) {
  const { t } = useTranslation();
  const first = useFocusOnMount<HTMLInputElement>();
  return (
    <form className="login-form__step" noValidate onSubmit={submitWith(flow.submitOtp)}>
      {flow.email && <p>{t('login.otp.sent', { email: flow.email })}</p>}
      {!flow.needsNewToken && <LoginInput flow={flow} field="otp" inputRef={first} />}
      {flow.submitting && !flow.error && (
        <p className="visually-hidden" role="status">
          {t('login.loggingIn')}
        </p>
      )}
      <LoginAlert error={flow.error} notes={flow.notes} />
      {flow.showCodeHint && !flow.needsNewToken && (
        <p className="notice--warning" role="status">
          {t('login.otp.hint')}
        </p>
      )}
      <div className="login-form__actions">
        {!flow.needsNewToken && <SubmitButton flow={flow} label={t('login.otp.submit')} />}
        {flow.email ? (
          <button
            type="button"
            className={flow.needsNewToken ? 'button' : 'button button--secondary'}
            disabled={flow.submitting}
            onClick={() => void flow.requestCode()}
          >
            {t('login.otp.resend')}
          </button>
        ) : (
          <button type="button" className="button" onClick={flow.back}>
            {t('login.unavailable.requestNew')}
          </button>
        )}
        {flow.email && (
          <button type="button" className="link-button" onClick={flow.back}>
            {t('login.otp.changeEmail')}
          </button>
        )}
      </div>
    </form>
  );
});

/** A one-time link this browser cannot log in with: its passcode is shown to type where it was asked for. */
export const OtpUnavailableStep = observer(function OtpUnavailableStep({ flow }: StepProps) {
  const { t } = useTranslation();
  return (
    <div className="login-form__step">
      <h3 className="login-form__step-title">{t('login.unavailable.title')}</h3>
      <LoginAlert error={flow.error} notes={flow.notes} />
      <p>{t('login.unavailable.text')}</p>
      {flow.linkCode && <p className="login-form__code">{flow.linkCode}</p>}
      <button type="button" className="button button--secondary" onClick={flow.back}>
        {t('login.unavailable.requestNew')}
      </button>
    </div>
  );
});

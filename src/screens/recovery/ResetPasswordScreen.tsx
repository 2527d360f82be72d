import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ScreenContent } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import type { AccountStore } from '../../stores/AccountStore';
import { useNewAccountStore } from '../account/account-context';
import { PasswordChecklist } from './PasswordChecklist';
import { PASSWORD_MAX, validatePasswordForm, type PasswordFormError } from './rules';
import '../account/account.css';

const PASSWORD_ERROR_KEY: Record<PasswordFormError, string> = {
  required: 'recovery.reset.required',
  invalid: 'recovery.reset.invalidPassword',
  mismatch: 'recovery.reset.mismatch',
};
const CONFIRM_ERROR_KEY: Record<PasswordFormError, string> = { ...PASSWORD_ERROR_KEY, required: 'recovery.reset.confirmRequired' };

/** /user/reset-password?token=...: the token is validated first; then a new password with its live checklist. */
export const ResetPasswordScreen = observer(function ResetPasswordScreen() {
  const { t } = useTranslation();
  const { session } = useStores();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const store = useNewAccountStore();
  useDocumentTitle(t('recovery.reset.title'));
  useEffect(() => {
    void store.validateResetToken(token);
  }, [store, token]);

  if (session.isLoggedIn && store.reset.state !== 'done') return <Navigate to="/" replace />;
  const linkInvalid =
    store.token.state === 'error' || (store.reset.state === 'error' && store.reset.error?.key === 'recovery.reset.invalidLink');
  return (
    <div className="container page recovery-page">
      <ScreenContent screen="recovery">
        <h1 className="page-title">{t('recovery.reset.title')}</h1>
        <div className="recovery-card">
          {store.token.state === 'loading' && <p role="status">{t('recovery.reset.checking')}</p>}
          {linkInvalid && (
            <>
              <p className="notice--error" role="alert">
                {t(store.token.error?.key ?? 'recovery.reset.invalidLink')}
              </p>
              <p>
                <Link to="/user/forgot-password">{t('recovery.reset.requestNew')}</Link>
              </p>
            </>
          )}
          {store.reset.state === 'done' && (
            <>
              <p className="notice--success" role="status">
                {t('recovery.reset.done')}
              </p>
              <p>
                <Link className="button" to="/my">
                  {t('recovery.reset.login')}
                </Link>
              </p>
            </>
          )}
          {store.token.state === 'done' && !linkInvalid && store.reset.state !== 'done' && <ResetForm store={store} token={token} />}
        </div>
      </ScreenContent>
    </div>
  );
});

const ResetForm = observer(function ResetForm({ store, token }: { store: AccountStore; token: string }) {
  const { t } = useTranslation();
  const id = useId();
  const passwordInput = useRef<HTMLInputElement>(null);
  const confirmInput = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<ReturnType<typeof validatePasswordForm>>({});

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePasswordForm(password, confirm);
    setErrors(found);
    if (found.password) {
      passwordInput.current?.focus();
      return;
    }
    if (found.confirm) {
      confirmInput.current?.focus();
      return;
    }
    void store.resetPassword(token, password, confirm);
  };

  const ids = { password: `${id}-password`, confirm: `${id}-confirm`, rules: `${id}-rules` };
  return (
    <form className="recovery-form" noValidate onSubmit={handleSubmit}>
      {store.token.data && <p>{t('recovery.reset.forAccount', { email: store.token.data })}</p>}
      {/* Lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={store.token.data ?? ''} readOnly hidden />
      <div className="field">
        <label htmlFor={ids.password}>{t('recovery.reset.password')}</label>
        <input
          ref={passwordInput}
          id={ids.password}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={[errors.password ? `${ids.password}-error` : '', ids.rules].filter(Boolean).join(' ')}
        />
        {errors.password && (
          <p id={`${ids.password}-error`} className="field__error">
            {t(PASSWORD_ERROR_KEY[errors.password])}
          </p>
        )}
      </div>
      <PasswordChecklist id={ids.rules} password={password} />
      <div className="field">
        <label htmlFor={ids.confirm}>{t('recovery.reset.confirm')}</label>
        <input
          ref={confirmInput}
          id={ids.confirm}
          name="password_confirm"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          aria-invalid={errors.confirm ? true : undefined}
          aria-describedby={errors.confirm ? `${ids.confirm}-error` : undefined}
        />
        {errors.confirm && (
          <p id={`${ids.confirm}-error`} className="field__error">
            {t(CONFIRM_ERROR_KEY[errors.confirm])}
          </p>
        )}
      </div>
      {store.reset.state === 'error' && store.reset.error && (
        <p className="notice--error" role="alert">
          {t(store.reset.error.key, store.reset.error.values)}
        </p>
      )}
      <p>
        <button type="submit" className="button" disabled={store.reset.loading}>
          {t('recovery.reset.submit')}
        </button>
      </p>
    </form>
  );
});

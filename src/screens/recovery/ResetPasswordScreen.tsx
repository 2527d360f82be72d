import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ScreenContent } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { Link, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import type { AccountStore } from '../../stores/AccountStore';
import { useNewAccountStore } from '../account/account-context';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { validatePasswordForm } from '../../domain/password';
import '../account/account.css';

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

  return (
    <form className="recovery-form" noValidate onSubmit={handleSubmit}>
      {store.token.data && <p>{t('recovery.reset.forAccount', { email: store.token.data })}</p>}
      {/* Lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={store.token.data ?? ''} readOnly hidden />
      <NewPasswordFields
        password={password}
        confirm={confirm}
        errors={errors}
        onPassword={setPassword}
        onConfirm={setConfirm}
        labels={{ password: t('recovery.reset.password'), confirm: t('recovery.reset.confirm') }}
        passwordRef={passwordInput}
        confirmRef={confirmInput}
      />
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

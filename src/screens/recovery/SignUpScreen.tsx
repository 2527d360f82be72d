import { useId, useRef, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ScreenContent } from '../../components/ScreenSections';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { passwordLogin } from '../../domain/sign-up';
import { useNewAccountStore } from '../account/account-context';
import { EMAIL_ERROR_KEY } from './EmailForm';
import { EMAIL_MAX, NAME_MAX, validateSignUp, type NameError, type SignUpErrors, type SignUpForm } from './rules';
import '../account/account.css';

const NAME_ERROR_KEY: Record<NameError, string> = { required: 'recovery.signUp.required', too_long: 'recovery.signUp.nameTooLong' };
const EMPTY: SignUpForm = { first_name: '', last_name: '', email: '', email_confirm: '', password: '', password_confirm: '' };
/** The form's fields in the order it shows them: the first with an error gets the focus. */
const ORDER = ['first_name', 'last_name', 'email', 'email_confirm', 'password', 'password_confirm'] as const;

/** Where to go after signing up: the page the visitor came from (a login dialog's link passes it), else the account. */
function nextPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/user/') ? from : '/my';
}

/**
 * /user/sign-up (issue 13): a visitor makes an account with a password (POST user) and is logged in with it at once. Only
 * where visitors log in with a password; a logged-in visitor is sent home (spec section 6, like the other /user pages).
 */
export const SignUpScreen = observer(function SignUpScreen() {
  const { t } = useTranslation();
  const { session, config, ui } = useStores();
  const store = useNewAccountStore();
  const navigate = useNavigate();
  const { state } = useLocation();
  const id = useId();
  const [form, setForm] = useState<SignUpForm>(EMPTY);
  const [errors, setErrors] = useState<SignUpErrors>({});
  const inputs = useRef<Partial<Record<keyof SignUpForm, HTMLInputElement | null>>>({});
  useDocumentTitle(t('recovery.signUp.title'));

  if (!passwordLogin(config.storefront)) return <Navigate to="/" replace />;
  if (session.isLoggedIn && store.signUp.state !== 'loading') return <Navigate to={nextPath(state)} replace />;

  const set = (field: keyof SignUpForm) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignUp(form);
    setErrors(found);
    const first = ORDER.find((f) => found[f]);
    if (first) {
      inputs.current[first]?.focus();
      return;
    }
    const { password_confirm: _confirm, ...details } = form;
    if (await store.createAccount(details, (username, password) => session.login({ username, password }))) {
      navigate(nextPath(state), { replace: true });
    }
  };

  const text = (field: 'first_name' | 'last_name' | 'email' | 'email_confirm', label: string, autoComplete: string) => {
    const error = errors[field];
    const message = error
      ? field === 'first_name' || field === 'last_name'
        ? NAME_ERROR_KEY[error as NameError]
        : EMAIL_ERROR_KEY[error]
      : null;
    const inputId = `${id}-${field}`;
    return (
      <div className="field">
        <label htmlFor={inputId}>{label}</label>
        <input
          ref={(el) => {
            inputs.current[field] = el;
          }}
          id={inputId}
          name={field}
          type={field.startsWith('email') ? 'email' : 'text'}
          autoComplete={autoComplete}
          required
          maxLength={field.startsWith('email') ? EMAIL_MAX : NAME_MAX}
          value={form[field]}
          disabled={store.signUp.loading}
          onChange={(e) => set(field)(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={message ? `${inputId}-error` : undefined}
        />
        {message && (
          <p id={`${inputId}-error`} className="field__error">
            {t(message)}
          </p>
        )}
      </div>
    );
  };

  const refusal = store.signUp.state === 'error' ? store.signUp.error : null;
  return (
    <div className="container page recovery-page">
      <ScreenContent screen="recovery">
        <h1 className="page-title">{t('recovery.signUp.title')}</h1>
        <div className="recovery-card">
          <p>{t('recovery.signUp.intro')}</p>
          <form className="recovery-form" noValidate onSubmit={(e) => void handleSubmit(e)}>
            {text('first_name', t('identity.firstName'), 'given-name')}
            {text('last_name', t('identity.lastName'), 'family-name')}
            {text('email', t('identity.email'), 'email')}
            {text('email_confirm', t('identity.emailConfirm'), 'email')}
            <NewPasswordFields
              password={form.password}
              confirm={form.password_confirm}
              errors={{ password: errors.password, confirm: errors.password_confirm }}
              onPassword={set('password')}
              onConfirm={set('password_confirm')}
              labels={{ password: t('recovery.signUp.password'), confirm: t('recovery.signUp.confirm') }}
              disabled={store.signUp.loading}
              passwordRef={(el) => {
                inputs.current.password = el;
              }}
              confirmRef={(el) => {
                inputs.current.password_confirm = el;
              }}
            />
            {refusal && (
              <div className="notice--error" role="alert">
                <p>{t(refusal.key, refusal.values)}</p>
                {refusal.key === 'login.errors.incorrectPassword' && (
                  <p>
                    <Link to="/user/forgot-password">{t('login.forgotPassword')}</Link>
                  </p>
                )}
              </div>
            )}
            <p>
              <button type="submit" className="button" disabled={store.signUp.loading} aria-busy={store.signUp.loading || undefined}>
                {store.signUp.loading ? t('recovery.signUp.submitting') : t('recovery.signUp.submit')}
              </button>
            </p>
          </form>
          <p>
            {t('recovery.signUp.haveAccount')}{' '}
            <button
              type="button"
              className="link-button"
              aria-haspopup="dialog"
              onClick={() => ui.openModal('login', { next: nextPath(state) })}
            >
              {t('recovery.signUp.login')}
            </button>
          </p>
          <p>
            {t('recovery.signUp.fromPurchase')} <Link to="/user/create-account">{t('recovery.signUp.fromPurchaseLink')}</Link>
          </p>
        </div>
      </ScreenContent>
    </div>
  );
});

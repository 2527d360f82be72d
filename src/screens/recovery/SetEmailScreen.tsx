import { useId, useRef, useState, type FormEvent } from 'react';
import { ScreenContent } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { useNewAccountStore } from '../account/account-context';
import { AccountLogin } from '../account/AccountLogin';
import { EMAIL_ERROR_KEY } from './EmailForm';
import { EMAIL_MAX, validateSetEmail, type EmailError } from './rules';
import '../account/account.css';

const CONFIRM_ERROR_KEY: Record<EmailError, string> = { ...EMAIL_ERROR_KEY, required: 'recovery.setEmail.confirmRequired' };

/** Only app paths are followed after saving (never another site). */
function nextPath(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/my/profile';
}

/** /user/set-email-address: a logged-in user without an address sets one (PUT my/user; 409 when taken). */
export const SetEmailScreen = observer(function SetEmailScreen() {
  const { t } = useTranslation();
  const { session } = useStores();
  const [search] = useSearchParams();
  const store = useNewAccountStore();
  const id = useId();
  const emailInput = useRef<HTMLInputElement>(null);
  const confirmInput = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<ReturnType<typeof validateSetEmail>>({});
  useDocumentTitle(t('recovery.setEmail.title'));

  if (session.status !== 'ready')
    return (
      <p className="page-status" role="status">
        {t('app.loading')}
      </p>
    );
  if (!session.isLoggedIn) return <AccountLogin />;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSetEmail(email, confirm);
    setErrors(found);
    if (found.email) {
      emailInput.current?.focus();
      return;
    }
    if (found.confirm) {
      confirmInput.current?.focus();
      return;
    }
    // The header and checkout read the address from the session: read it again once saved.
    if (await store.setEmailAddress(email, confirm)) await session.load().catch(() => undefined);
  };

  const ids = { email: `${id}-email`, confirm: `${id}-confirm` };
  const request = store.setEmail;
  return (
    <div className="container page recovery-page">
      <ScreenContent screen="recovery">
        <h1 className="page-title">{t('recovery.setEmail.title')}</h1>
        <div className="recovery-card">
          {request.state === 'done' ? (
            <>
              <p className="notice--success" role="status">
                {t('recovery.setEmail.done')}
              </p>
              <p>
                <Link className="button" to={nextPath(search.get('next'))}>
                  {t('recovery.setEmail.continue')}
                </Link>
              </p>
            </>
          ) : (
            <form className="recovery-form" noValidate onSubmit={handleSubmit}>
              <p>{t('recovery.setEmail.intro')}</p>
              <div className="field">
                <label htmlFor={ids.email}>{t('recovery.setEmail.email')}</label>
                <input
                  ref={emailInput}
                  id={ids.email}
                  name="email"
                  type="email"
                  autoComplete="email"
                  required
                  maxLength={EMAIL_MAX}
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  aria-invalid={errors.email ? true : undefined}
                  aria-describedby={errors.email ? `${ids.email}-error` : undefined}
                />
                {errors.email && (
                  <p id={`${ids.email}-error`} className="field__error">
                    {t(EMAIL_ERROR_KEY[errors.email])}
                  </p>
                )}
              </div>
              <div className="field">
                <label htmlFor={ids.confirm}>{t('recovery.setEmail.confirm')}</label>
                <input
                  ref={confirmInput}
                  id={ids.confirm}
                  name="email_confirm"
                  type="email"
                  autoComplete="email"
                  required
                  maxLength={EMAIL_MAX}
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
              {request.state === 'error' && request.error && (
                <p className="notice--error" role="alert">
                  {t(request.error.key, request.error.values)}
                </p>
              )}
              <p>
                <button type="submit" className="button" disabled={request.loading}>
                  {t('recovery.setEmail.submit')}
                </button>
              </p>
            </form>
          )}
        </div>
      </ScreenContent>
    </div>
  );
});

import { useId, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { StaffStore } from '../../stores/StaffStore';
import { useDocumentTitle } from '../../app/useDocumentTitle';

/** /_staff (issue 18): support staff log in here; the page then reloads with the preview bar on every page. */
export const StaffLoginScreen = observer(function StaffLoginScreen() {
  const { t } = useTranslation();
  const root = useStores();
  const store = useScreenStore(() => new StaffStore({ api: root.api, reload: () => window.location.reload() }), [root.api]);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const id = useId();
  useDocumentTitle(t('staff.loginTitle'));

  return (
    <div className="container page recovery-page">
      <h1 className="page-title">{t('staff.loginTitle')}</h1>
      {root.staff ? (
        <div className="recovery-card" role="status">
          <p>{t('staff.loggedIn')}</p>
          <Link to="/events">{t('staff.toStorefront')}</Link>
        </div>
      ) : (
        <form
          className="recovery-card recovery-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void store.login(email, password).then((ok) => ok && window.location.reload());
          }}
        >
          <p>{t('staff.loginIntro')}</p>
          <div className="field">
            <label htmlFor={`${id}-email`}>{t('staff.email')}</label>
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              required
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-password`}>{t('staff.password')}</label>
            <input
              id={`${id}-password`}
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
              aria-describedby={store.error ? `${id}-error` : undefined}
            />
          </div>
          {store.error && (
            <p id={`${id}-error`} className="notice notice--error" role="alert">
              {t(store.error)}
            </p>
          )}
          <button type="submit" className="button" disabled={store.state === 'busy' || !email || !password}>
            {t('staff.login')}
          </button>
        </form>
      )}
    </div>
  );
});

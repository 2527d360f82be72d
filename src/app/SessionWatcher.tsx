import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';

/** Shows that the session ended in another tab (the 1 s cookie check noticed) and leaves the account area. */
export const SessionWatcher = observer(function SessionWatcher() {
  const { t } = useTranslation();
  const { session } = useStores();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const ended = session.endedElsewhere;

  useEffect(() => {
    if (ended && pathname.startsWith('/my')) navigate('/', { replace: true });
  }, [ended, pathname, navigate]);

  if (!ended) return null;
  return (
    <div className="session-notice container" role="status">
      <p>{t('session.loggedOutElsewhere')}</p>
      <button type="button" className="link-button" onClick={session.dismissEndedElsewhere}>
        {t('modal.close')}
      </button>
    </div>
  );
});

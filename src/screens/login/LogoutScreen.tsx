import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';

/** /logout: ends the session, then goes to / (spec section 2). */
export function LogoutScreen() {
  const { t } = useTranslation();
  const { session } = useStores();
  const [done, setDone] = useState(false);
  useEffect(() => {
    let live = true;
    void session
      .logout()
      .then((endSessionUrl) => {
        // A single sign-on session ends at the identity provider too, which sends the visitor back home.
        if (endSessionUrl && live) window.location.assign(endSessionUrl);
        else if (live) setDone(true);
      })
      .catch(() => live && setDone(true));
    return () => {
      live = false;
    };
  }, [session]);
  if (done) return <Navigate to="/" replace />;
  return (
    <p className="page-status" role="status">
      {t('session.loggingOut')}
    </p>
  );
}

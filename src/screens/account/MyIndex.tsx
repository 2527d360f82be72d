import { useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { myAccountGuard } from '../../domain/guards';
import { sessionSettled } from './account-context';

/** /my itself, guard 3: /my/membership for an active member, else /my/profile, keeping query and hash.
 *  A component rather than a loader: loaders never see the hash (react-router strips it from their request). */
export function MyIndex() {
  const { t } = useTranslation();
  const { session } = useStores();
  const location = useLocation();
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let live = true;
    void sessionSettled(session).then(() => { if (live) setSettled(true); });
    return () => { live = false; };
  }, [session]);
  if (!settled) return <p className="page-status" role="status">{t('app.loading')}</p>;
  const target = myAccountGuard({ pathname: '/my', search: location.search, hash: location.hash }, session.isActiveMember);
  return <Navigate to={target ?? '/my/profile'} replace />;
}

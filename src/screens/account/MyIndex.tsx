import { Navigate, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { myAccountGuard } from '../../domain/guards';
import { useSessionSettled } from '../../stores/session-settled';

/** /my itself, guard 3: /my/membership for an active member, else /my/profile, keeping query and hash.
 */
export function MyIndex() {
  const { t } = useTranslation();
  const { session } = useStores();
  const location = useLocation();
  if (!useSessionSettled(session))
    return (
      <p className="page-status" role="status">
        {t('app.loading')}
      </p>
    );
  const target = myAccountGuard({ pathname: '/my', search: location.search, hash: location.hash }, session.isActiveMember);
  return <Navigate to={target ?? '/my/profile'} replace />;
}

import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { Request } from '../../stores/AccountStore';

/** Loading text while a request runs, its error message (spec section 8) when it failed, else nothing. */
export const RequestStatus = observer(function RequestStatus({ request }: { request: Request<unknown> }) {
  const { t } = useTranslation();
  if (request.state === 'loading')
    return (
      <p className="page-status" role="status">
        {t('app.loading')}
      </p>
    );
  if (request.state === 'error' && request.error) {
    return (
      <p className="notice--error" role="alert">
        {t(request.error.key, request.error.values)}
      </p>
    );
  }
  return null;
});

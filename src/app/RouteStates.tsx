import { Link, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

/** Shown while a route's code loads on the first visit. */
export function RouteLoading() {
  const { t } = useTranslation();
  return <p className="page-status" role="status">{t('app.loading')}</p>;
}

/** A route that throws: the spec's unexpected-error message with a Continue link to the seller home. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  return (
    <div className="container page">
      <h1>{t('app.unexpectedError')}</h1>
      <p><Link to="/" reloadDocument>{t('app.continue')}</Link></p>
    </div>
  );
}

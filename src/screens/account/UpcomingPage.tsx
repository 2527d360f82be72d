import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { useAccountStore } from './account-context';
import { RequestStatus } from './RequestStatus';
import { visitViews } from './views';

/** /my/upcoming: the sessions the user holds booked tickets for, soonest first (GET my/order_session). */
export const UpcomingPage = observer(function UpcomingPage() {
  const { t } = useTranslation();
  const { config } = useStores();
  const account = useAccountStore();
  useDocumentTitle(t('orders.upcomingTitle'));
  useEffect(() => {
    void account.loadVisits();
  }, [account]);
  const visits = visitViews(account.visits.data, config.timezone);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title" className="page-title">
        {t('orders.upcomingTitle')}
      </h1>
      <RequestStatus request={account.visits} />
      {account.visits.state === 'done' && visits.length === 0 && <p>{t('orders.upcomingEmpty')}</p>}
      {visits.length > 0 && (
        <ul className="account-list">
          {visits.map((visit) => (
            <li key={visit.id} className="account-list__item">
              <h2 className="account-list__title">{visit.event}</h2>
              <p>{visit.when}</p>
              <p>{t('orders.ticketCount', { count: visit.ticketCount })}</p>
              <Link to={`/my/upcoming/session/${visit.id}`}>{t('orders.viewVisit', { event: visit.event, when: visit.when })}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});

import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { useAccountStore } from './account-context';
import { RequestStatus } from './RequestStatus';
import { TicketList } from './TicketList';
import { visitViews } from './views';

/** /my/upcoming/session/{id}: one upcoming visit with its tickets and the orders they came from. */
export const VisitPage = observer(function VisitPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { config } = useStores();
  const account = useAccountStore();
  useEffect(() => {
    void account.loadVisit(id);
    void account.loadOrders();
  }, [account, id]);
  const visit = visitViews(account.visit.data, config.timezone)[0];
  useDocumentTitle(visit?.event ?? t('orders.upcomingTitle'));
  // The session read carries tickets, not order numbers: those come from the orders list.
  const orderLabel = (orderId: string) => {
    const number = account.orders.data?.ticket_order._data.find((o) => o.id === orderId)?.order_number;
    return number ? t('orders.viewOrder', { number }) : t('orders.viewOrderPlain');
  };
  return (
    <section aria-labelledby="account-title">
      <p>
        <Link className="back-link" to="/my/upcoming">
          {t('orders.backToUpcoming')}
        </Link>
      </p>
      {!visit && (
        <h1 id="account-title" className="page-title">
          {t('orders.upcomingTitle')}
        </h1>
      )}
      <RequestStatus request={account.visit} />
      {visit && (
        <>
          <h1 id="account-title" className="page-title">
            {visit.event}
          </h1>
          <p className="account-page__lead">{visit.when}</p>
          <h2 id="visit-tickets">{t('orders.ticketsTitle')}</h2>
          <TicketList tickets={visit.tickets} labelledBy="visit-tickets" />
          <h2 id="visit-orders">{t('orders.visitOrders')}</h2>
          <ul aria-labelledby="visit-orders">
            {visit.orderIds.map((orderId) => (
              <li key={orderId}>
                <Link to={`/my/orders/${orderId}`}>{orderLabel(orderId)}</Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
});

import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { useAccountStore } from './account-context';
import { RequestStatus } from './RequestStatus';
import { orderViews } from './views';

/** /my/orders: the user's recent orders, newest first (GET my/ticket_order). */
export const OrdersPage = observer(function OrdersPage() {
  const { t } = useTranslation();
  const { config } = useStores();
  const account = useAccountStore();
  useDocumentTitle(t('orders.recentTitle'));
  useEffect(() => {
    void account.loadOrders();
  }, [account]);
  const orders = orderViews(account.orders.data, config.timezone);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title" className="page-title">
        {t('orders.recentTitle')}
      </h1>
      <RequestStatus request={account.orders} />
      {account.orders.state === 'done' && orders.length === 0 && <p>{t('orders.recentEmpty')}</p>}
      {orders.length > 0 && (
        <ul className="account-list">
          {orders.map((order) => (
            <li key={order.id} className="account-list__item">
              <h2 className="account-list__title">{t('orders.orderTitle', { number: order.number })}</h2>
              <p>{t('orders.purchasedOn', { date: order.purchasedOn })}</p>
              {order.events.length > 0 && <p>{order.events.join(', ')}</p>}
              <p>
                {t('orders.ticketCount', { count: order.ticketCount })} ·{' '}
                {t('orders.total', { total: formatMoney(decimalToMinor(order.total), config.seller.currency) })}
              </p>
              <Link to={`/my/orders/${order.id}`}>{t('orders.viewOrder', { number: order.number })}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});

import { useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { orderQrUrl } from '../../contract/urls';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { useAccountStore } from './account-context';
import { RequestStatus } from './RequestStatus';
import { TicketList } from './TicketList';
import { orderViews } from './views';

const QR_SIZE = 200;

/** /my/orders/{id}: one order with its QR code (cached_api/ticket_order/{id}/qrcode) and its tickets. */
export const OrderPage = observer(function OrderPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { config } = useStores();
  const account = useAccountStore();
  useEffect(() => {
    void account.loadOrder(id);
  }, [account, id]);
  const order = orderViews(account.order.data, config.timezone)[0];
  const title = order ? t('orders.orderTitle', { number: order.number }) : t('orders.recentTitle');
  useDocumentTitle(title);
  return (
    <section aria-labelledby="account-title">
      <p>
        <Link className="back-link" to="/my/orders">
          {t('orders.backToOrders')}
        </Link>
      </p>
      <h1 id="account-title" className="page-title">
        {title}
      </h1>
      <RequestStatus request={account.order} />
      {order && (
        <>
          <div className="account-order">
            <img
              className="account-order__qr"
              width={QR_SIZE}
              height={QR_SIZE}
              src={orderQrUrl(config.deployment.cachedApiBaseUrl, order.id, config.seller.id)}
              alt={t('orders.qrAlt', { number: order.number })}
            />
            <div>
              <p>{t('orders.purchasedOn', { date: order.purchasedOn })}</p>
              <p>{t('orders.ticketCount', { count: order.ticketCount })}</p>
              <p className="account-order__total">
                {t('orders.total', { total: formatMoney(decimalToMinor(order.total), config.seller.currency) })}
              </p>
            </div>
          </div>
          <h2 id="order-tickets">{t('orders.ticketsTitle')}</h2>
          <TicketList tickets={order.tickets} labelledBy="order-tickets" />
        </>
      )}
    </section>
  );
});

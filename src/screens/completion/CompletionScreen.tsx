import { useEffect, useMemo } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { NotFoundScreen } from '../not-found/NotFoundScreen';
import { orderIdsOf } from '../checkout/paths';
import { useCheckoutStore } from '../checkout/checkout-store';
import { OrderSummary } from './OrderSummary';

/** /checkout/complete?orderIds=...: the confirmation, a QR code and the tickets of each order. */
export const CompletionScreen = observer(function CompletionScreen() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const { cart } = useStores();
  const checkout = useCheckoutStore();
  const key = search.get('orderIds') ?? '';
  const orderIds = useMemo(() => orderIdsOf(new URLSearchParams({ orderIds: key })), [key]);
  useDocumentTitle(t('completion.title'));

  useEffect(() => {
    checkout.consumeCompletion();
    cart.forgetCompletedOrders();
    if (orderIds.length > 0) void checkout.loadCompletion(orderIds);
  }, [orderIds, checkout, cart]);

  if (orderIds.length === 0) return <NotFoundScreen />;
  return (
    <div className="container page completion-page">
      <h1 className="page-title">{t('completion.title')}</h1>
      <p className="completion-page__message">{t('completion.message')}</p>
      {checkout.completionState === 'loading' && (
        <p className="page-status" role="status">
          {t('app.loading')}
        </p>
      )}
      {checkout.completionState === 'error' && (
        <div className="notice--error" role="alert">
          <p>{checkout.completionNotFound ? t('completion.notFound') : t('completion.loadError')}</p>
          <Link to="/">{t('app.continue')}</Link>
        </div>
      )}
      {checkout.completionState === 'ready' &&
        checkout.orders.map((order) => {
          const row = order.ticket_order._data[0];
          return row ? <OrderSummary key={row.id} order={order} qrImage={checkout.qrImageOf(row.id)} /> : null;
        })}
      <p>
        <Link className="button button--secondary" to="/events">
          {t('completion.continueShopping')}
        </Link>
      </p>
    </div>
  );
});

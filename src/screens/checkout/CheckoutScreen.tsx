import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { decimalToMinor } from '../../domain/checkout-rules';
import { CheckoutForm } from './CheckoutForm';
import { CheckoutSummary } from './CheckoutSummary';
import { completionPath } from './paths';

/** /checkout/:cartId? 'Payment information'. Reads the cart again first: with no items it goes home, a cart
 *  already checked out goes to its confirmation (spec section 2). */
export const CheckoutScreen = observer(function CheckoutScreen() {
  const { t } = useTranslation();
  const { cartId } = useParams();
  const { cart, checkout } = useStores();
  const [loaded, setLoaded] = useState(false);
  useDocumentTitle(t('checkout.title'));

  useEffect(() => {
    let live = true;
    if (cartId) cart.adopt(cartId);
    void cart.load().finally(() => { if (live) setLoaded(true); });
    return () => { live = false; };
  }, [cartId, cart]);

  const done = checkout.completedOrderIds ?? cart.completedOrderIds;
  if (done) return <Navigate to={completionPath(done)} replace />;
  if (!loaded && cart.isEmpty) return <p className="page-status" role="status">{t('app.loading')}</p>;
  if (cart.isEmpty) return <Navigate to="/" replace />;

  const free = decimalToMinor(cart.cart?.cart_fees.grand_totals.total_outstanding) === 0;
  return (
    <div className="container checkout-page">
      <h1 className="page-title checkout-page__title">{t('checkout.title')}</h1>
      <div className="checkout-page__summary"><CheckoutSummary /></div>
      <section className="checkout-page__main" aria-labelledby="checkout-purchaser">
        <h2 id="checkout-purchaser" className="checkout-page__section-title">{t('checkout.purchaserTitle')}</h2>
        <CheckoutForm free={free} />
      </section>
    </div>
  );
});

import { useEffect, useState } from 'react';
import { ScreenContent } from '../../components/ScreenSections';
import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { useCheckoutStore } from './checkout-store';
import { completionPath } from './paths';

/** How often the pending screen asks whether the payment cleared. */
const POLL_MS = 5000;

/**
 * /checkout/pending/{cartId} (spec section 2): a payment the bank is still clearing (a debit). Shows the cart number as
 * the reference and moves on to the confirmation as soon as the cart has its orders (booked by the provider's webhook);
 * a payment that failed puts the cart back in the shopper's hands at checkout.
 */
export function PendingScreen() {
  const { t } = useTranslation();
  const { cartId = '' } = useParams();
  const checkout = useCheckoutStore();
  const [reference, setReference] = useState<string | null>(null);
  const [next, setNext] = useState<string | null>(null);
  useDocumentTitle(t('payment.pendingTitle'));

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      try {
        const status = await checkout.pendingStatus(cartId);
        if (!live) return;
        if (status) {
          setReference(status.reference);
          if (status.orderIds.length > 0) return setNext(completionPath(status.orderIds));
          if (status.payable) return setNext(`/checkout/${encodeURIComponent(cartId)}`);
        }
      } catch {
        // Asked again on the next round.
      }
      if (live) timer = setTimeout(check, POLL_MS);
    };
    void check();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [checkout, cartId]);

  if (next) return <Navigate to={next} replace />;
  return (
    <div className="container page pending-page">
      <ScreenContent screen="pending">
        <h1 className="page-title">{t('payment.pendingTitle')}</h1>
        <p>{t('payment.pendingBody')}</p>
        {reference && <p className="pending-page__reference">{t('payment.pendingReference', { number: reference })}</p>}
        <p className="page-status" role="status">
          {t('payment.pendingChecking')}
        </p>
      </ScreenContent>
    </div>
  );
}

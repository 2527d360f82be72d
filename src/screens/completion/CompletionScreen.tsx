import { useEffect, useMemo } from 'react';
import { ScreenSections } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { NotFoundScreen } from '../not-found/NotFoundScreen';
import { orderIdsOf } from '../checkout/paths';
import { useCheckoutStore } from '../checkout/checkout-store';
import { OrderSummary } from './OrderSummary';
import {
  COMPLETION_IMAGE,
  COMPLETION_IMAGE_MEDIA,
  completedOrderRedirect,
  completedOrderUrl,
  completionImage,
} from '../../domain/completion';
import { passwordLogin } from '../../domain/sign-up';
import { imageUrl } from '../../contract/urls';

/**
 * /checkout/complete?orderIds=...: the confirmation, a QR code and the tickets of each order, under the seller's
 * background image (phone and wide, spec section 2). A seller with an external completed-order address sends the
 * visitor there with the order ids instead.
 */
export const CompletionScreen = observer(function CompletionScreen() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const { cart, config, session } = useStores();
  const checkout = useCheckoutStore();
  const key = search.get('orderIds') ?? '';
  const orderIds = useMemo(() => orderIdsOf(new URLSearchParams({ orderIds: key })), [key]);
  useDocumentTitle(t('completion.title'));

  const external = completedOrderUrl(config.storefront);
  const image = completionImage(config.storefront);

  useEffect(() => {
    checkout.consumeCompletion();
    cart.forgetCompletedOrders();
    if (orderIds.length === 0) return;
    if (external) window.location.replace(completedOrderRedirect(external, orderIds));
    else void checkout.loadCompletion(orderIds);
  }, [orderIds, checkout, cart, external]);

  if (orderIds.length === 0) return <NotFoundScreen />;
  if (external)
    return (
      <p className="container page page-status" role="status">
        {t('app.loading')}
      </p>
    );
  // An order this browser may not read (another browser, an old link) is not confirmed here: the page says only
  // that it was not found and where the tickets can be had again (issue 16: it showed both).
  const notFound = checkout.completionState === 'error' && checkout.completionNotFound;
  const base = config.deployment.cachedApiBaseUrl;
  return (
    <div className="container page completion-page">
      <ScreenSections
        screen="completion"
        sections={{
          image: () =>
            !notFound && image.mobile && image.desktop ? (
              <picture className="completion-page__image">
                <source media={COMPLETION_IMAGE_MEDIA} srcSet={imageUrl(base, image.desktop, { width: COMPLETION_IMAGE.desktop })} />
                <img src={imageUrl(base, image.mobile, { width: COMPLETION_IMAGE.mobile })} alt="" />
              </picture>
            ) : null,
          heading: () =>
            notFound ? (
              <>
                <h1 className="page-title">{t('completion.notFoundTitle')}</h1>
                <p role="alert">{t('completion.notFound')}</p>
                <p>
                  <Link to="/resend">{t('completion.resendLink')}</Link>
                </p>
              </>
            ) : (
              <>
                <h1 className="page-title">{t('completion.title')}</h1>
                <p className="completion-page__message">{t('completion.message')}</p>
              </>
            ),
          orders: () => (
            <>
              {checkout.completionState === 'loading' && (
                <p className="page-status" role="status">
                  {t('app.loading')}
                </p>
              )}
              {checkout.completionState === 'error' && !notFound && (
                <div className="notice--error" role="alert">
                  <p>{t('completion.loadError')}</p>
                  <Link to="/">{t('app.continue')}</Link>
                </div>
              )}
              {checkout.completionState === 'ready' &&
                checkout.orders.map((order) => {
                  const row = order.ticket_order._data[0];
                  return row ? (
                    <OrderSummary key={row.id} order={order} qrImage={checkout.qrImageOf(row.id)} walletPasses={checkout.walletPassesOf} />
                  ) : null;
                })}
            </>
          ),
          account: () =>
            checkout.completionState === 'ready' && !session.isLoggedIn && passwordLogin(config.storefront) ? (
              <section className="completion-page__account" aria-labelledby="completion-account">
                <h2 id="completion-account">{t('completion.account.title')}</h2>
                <p>{t('completion.account.intro')}</p>
                <Link to="/user/create-account">{t('completion.account.link')}</Link>
              </section>
            ) : null,
          continue: () => (
            <p>
              <Link className="button button--secondary" to="/events">
                {t('completion.continueShopping')}
              </Link>
            </p>
          ),
        }}
      />
    </div>
  );
});

import { useDeferredValue, useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Navigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import type { RootStore } from '../../stores/RootStore';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { decimalToMinor } from '../../domain/pricing';
import { useMoneyFormatWarmUp } from '../../components/useMoneyFormatWarmUp';
import { CheckoutForm } from './CheckoutForm';
import { CheckoutSummary } from './CheckoutSummary';
import { completionPath } from './paths';
import { managePathOf } from '../../domain/self-edit';
import { useCheckoutStore } from './checkout-store';
import { identitySchema } from './identity-form';
import { track } from '../../analytics/track';
import { afterNextPaint } from '../../app/after-paint';

/** An order's edit (issue 17) paid at /manage/{orderId}/confirm: its cart, and the order it goes back to. */
export interface EditCheckout {
  orderId: string;
  cartId: string;
}

/**
 * A checkout the server draws (src/app/first-screen.ts): the cart its page carries, read with the visitor's own cookies,
 * as the browser's startup read (the screen opening then takes it, and the browser once alive does not read it again).
 * Its title and summary are drawn; the purchaser form follows once the page is alive (below). A cart that is not the
 * visitor's, is empty or is checked out already is not drawn: the screen then sends the visitor where it goes.
 */
export async function primeDrawnCheckout(store: RootStore, cartId: string): Promise<boolean> {
  store.cart.adopt(cartId);
  await store.cart.loadAtStartup();
  return store.cart.cart?.id === cartId && store.cart.cart.state === 'pending' && !store.cart.isEmpty;
}

/** /checkout/:cartId? 'Payment information'. Reads the cart again first (on a page just arrived, the read the page
 *  came with): with no items it goes home, a cart already checked out goes to its confirmation (spec section 2).
 *  With `edit` it pays an edit's difference: no purchaser form (the order has one), and back to the order once paid. */
export const CheckoutScreen = observer(function CheckoutScreen({ edit }: { edit?: EditCheckout }) {
  const { t } = useTranslation();
  const params = useParams();
  const cartId = edit?.cartId ?? params.cartId;
  const { cart, session, ui, config } = useStores();
  const checkout = useCheckoutStore();
  const [loaded, setLoaded] = useState(false);
  useDocumentTitle(t('checkout.title'));

  useEffect(() => {
    let live = true;
    if (cartId) cart.adopt(cartId);
    void cart.loadOnOpen().finally(() => {
      if (!live) return;
      setLoaded(true);
      // Once per visit of the checkout, with the cart as the server has it (an edit of an order is no new purchase).
      if (cart.cart && cart.cart.state === 'pending' && !cart.isEmpty && !cart.cart.edit_order_id)
        track({ name: 'begin_checkout', cart: cart.cart });
    });
    return () => {
      live = false;
    };
  }, [cartId, cart]);

  // The purchaser form's code (@rjsf, the largest chunk) and its validator download beside the cart read, not after
  // it; once the first frame (the title, and the summary when the page came with the cart) is on screen.
  const apiBase = config.deployment.apiBaseUrl;
  useEffect(
    () =>
      afterNextPaint(() => {
        import('../../forms/ThemedFormImpl').catch(() => {});
        import('../../forms/precompiled').then(({ loadFormValidator }) => loadFormValidator(apiBase, identitySchema)).catch(() => {});
      }),
    [apiBase],
  );
  useMoneyFormatWarmUp(config.seller.currency);
  // Once the cart is known the title and summary paint first; the form (the heaviest render) follows in a
  // background render that yields to the browser.
  const formShown = useDeferredValue(loaded || !cart.isEmpty, false);

  const done = checkout.completedOrderIds ?? cart.completedOrderIds;
  if (done && edit) return <Navigate to={managePathOf(edit.orderId)} state={{ saved: true }} replace />;
  if (done) return <Navigate to={completionPath(done)} replace />;
  const title = <h1 className="page-title checkout-page__title">{t('checkout.title')}</h1>;
  // The title shows at once; the summary and the form follow the cart.
  if (!loaded && cart.isEmpty) {
    return (
      <div className="container checkout-page">
        {title}
        <p className="page-status" role="status">
          {t('app.loading')}
        </p>
      </div>
    );
  }
  if (cart.isEmpty) return <Navigate to={edit ? managePathOf(edit.orderId) : '/'} replace />;
  // Spec section 2: a logged-in user without a valid e-mail sets one first.
  if (session.isLoggedIn && session.user && !session.user.email) return <Navigate to="/user/set-email-address" replace />;
  // The identity form shows for guests, and for a logged-in user only while the cart is the public identity's.
  const askIdentity = !edit && (!session.isLoggedIn || cart.ownedByPublicIdentity);
  const loginEnabled = !edit && (config.storefront.auth as { method?: string } | undefined)?.method !== 'none';

  const free = decimalToMinor(cart.cart?.cart_fees.grand_totals.total_outstanding) === 0;
  const loginPrompt = (
    <>
      {!session.isLoggedIn && loginEnabled && (
        <p className="checkout-login">
          {t('login.alreadyMember')}{' '}
          <button type="button" className="link-button" aria-haspopup="dialog" onClick={() => ui.openModal('login', { withGuest: true })}>
            {t('login.alreadyMemberLink')}
          </button>
        </p>
      )}
      {session.isLoggedIn && !askIdentity && !edit && session.greetingName && (
        <p className="checkout-login">{t('login.purchasingAs', { name: session.greetingName })}</p>
      )}
      {edit && <p className="checkout-login">{t('manage.payDifference')}</p>}
    </>
  );
  return (
    <div className="container checkout-page">
      {title}
      <div className="checkout-page__summary">
        <CheckoutSummary loaded={loaded} />
      </div>
      <div className="checkout-page__main">
        {formShown ? (
          <CheckoutForm
            key={askIdentity ? 'guest' : 'member'}
            free={free}
            askIdentity={askIdentity}
            gateway={cart.cart?.cart_fees.gateway_id === 'stripe' ? 'stripe' : 'test'}
            amount={decimalToMinor(cart.cart?.cart_fees.grand_totals.total_outstanding) ?? 0}
            loginPrompt={loginPrompt}
          />
        ) : (
          <p className="form-loading">{t('app.loading')}</p>
        )}
      </div>
    </div>
  );
});

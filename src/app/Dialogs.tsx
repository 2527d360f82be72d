import { lazy, Suspense } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { Modal } from '../components/Modal';
import { MobileCart } from '../components/CartWidget';
import { CartExpiredModal, CartRemoveModal, ExtendTimerModal } from '../components/CartModals';

// The login form and its steps load when a dialog first asks for them.
const LoginDialog = lazy(async () => ({ default: (await import('../components/login/LoginDialog')).LoginDialog }));
// The cart's promo code field is the checkout's, downloaded when the dialog first opens (not on the first page).
const PromoCodeField = lazy(async () => ({ default: (await import('../screens/checkout/PromoCodeField')).PromoCodeField }));

/** Draws the dialog UiStore says is open; screens open dialogs by name, never by mounting them. The cart's
 *  own dialogs (remove confirmation, extend offer) follow the cart store's state. */
export const Dialogs = observer(function Dialogs() {
  const { t } = useTranslation();
  const { ui, cart } = useStores();
  // One dialog at a time, the most urgent first: the expiry notice, then the cart's own questions.
  if (ui.modal?.name === 'cart-expiry') return <CartExpiredModal onClose={ui.closeModal} />;
  if (cart.pendingRemoval) return <CartRemoveModal />;
  if (cart.showExtendOffer) return <ExtendTimerModal />;
  if (ui.modal?.name === 'login') {
    const props = ui.modal.props ?? {};
    return (
      <Suspense fallback={null}>
        <LoginDialog
          withGuest={props.withGuest === true}
          next={typeof props.next === 'string' ? props.next : undefined}
          onClose={ui.closeModal}
        />
      </Suspense>
    );
  }
  if (ui.modal?.name === 'promo-codes') {
    return (
      <Modal title={t('promo.modalTitle')} onClose={ui.closeModal}>
        <Suspense fallback={<p role="status">{t('app.loading')}</p>}>
          <PromoCodeField cartLoaded />
        </Suspense>
      </Modal>
    );
  }
  if (ui.modal?.name === 'mobile-cart') {
    return (
      <Modal title={t('cart.title')} onClose={ui.closeModal}>
        <MobileCart />
      </Modal>
    );
  }
  return null;
});

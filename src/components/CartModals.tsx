import { observer } from 'mobx-react-lite';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { Modal } from './Modal';
import { errorMessageKey } from '../domain/error-messages';

/** Confirms removing a cart item; warns when the item is one others depend on (spec section 4). */
export const CartRemoveModal = observer(function CartRemoveModal() {
  const { t } = useTranslation();
  const { cart } = useStores();
  const item = cart.pendingRemoval;
  if (!item) return null;
  const clearsOthers = item.isDependency && cart.items.length > 1;
  return (
    <Modal title={t('cart.removeTitle')} onClose={cart.cancelRemove}>
      <p>{t('cart.removeBody', { name: item.name })}</p>
      {clearsOthers && <p className="notice--warning">{t('cart.removeDependency', { name: item.name })}</p>}
      <div className="modal__actions">
        <button type="button" className="button button--secondary" onClick={cart.cancelRemove}>
          {t('cart.removeCancel')}
        </button>
        <button type="button" className="button" disabled={cart.busy} onClick={() => void cart.confirmRemove()}>
          {t('cart.removeConfirm')}
        </button>
      </div>
    </Modal>
  );
});

/** At 60 s or less, one 2-minute extension is offered; Dismiss records the decline (spec section 4). */
export const ExtendTimerModal = observer(function ExtendTimerModal() {
  const { t } = useTranslation();
  const { cart } = useStores();
  if (!cart.showExtendOffer) return null;
  return (
    <Modal title={t('timer.extendTitle')} onClose={cart.declineExtension}>
      <p role="alert">{t('timer.extendBody', { count: cart.secondsLeft ?? 0 })}</p>
      {cart.error && (
        <p className="notice--error" role="alert">
          {t(errorMessageKey(cart.error))}
        </p>
      )}
      <div className="modal__actions">
        <button type="button" className="button button--secondary" onClick={cart.declineExtension}>
          {t('timer.dismiss')}
        </button>
        <button type="button" className="button" onClick={() => void cart.extend()}>
          {t('timer.extend')}
        </button>
      </div>
    </Modal>
  );
});

/** 'Cart timed out': the cart is already cleared; Start over goes back to the beginning. */
export function CartExpiredModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const startOver = () => {
    onClose();
    void navigate('/');
  };
  return (
    <Modal title={t('cart.expiredTitle')} onClose={startOver}>
      <p>{t('cart.expiredBody')}</p>
      <div className="modal__actions">
        <button type="button" className="button" onClick={startOver}>
          {t('cart.startOver')}
        </button>
      </div>
    </Modal>
  );
}

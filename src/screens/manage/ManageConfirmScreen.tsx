import { useMemo } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { StoresProvider, useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { ManageStore } from '../../stores/ManageStore';
import { managePathOf } from '../../domain/self-edit';
import { CheckoutScreen } from '../checkout/CheckoutScreen';
import { useManageSignature } from './signature';

/**
 * /manage/{orderId}/confirm (spec section 2): the checkout screen, paying what this browser's edit of the order costs
 * more. The edit cart takes the shopper's cart's place for this screen only; once paid, back to the order.
 */
export const ManageConfirmScreen = observer(function ManageConfirmScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const root = useStores();
  const signature = useManageSignature(id);
  const currency = root.config.seller.currency;
  const store = useScreenStore(
    () => new ManageStore({ api: root.api, orderId: id, signature, currency }),
    [root.api, id, signature, currency],
  );
  const cartId = store.edit?.cart_id ?? null;
  if (store.state === 'ready' && cartId) return <EditCheckout orderId={id} cartId={cartId} />;
  return (
    <div className="container page recovery-page">
      <h1 className="page-title">{t('checkout.title')}</h1>
      {store.state === 'loading' ? (
        <p className="page-status" role="status">
          {t('app.loading')}
        </p>
      ) : (
        <div className="recovery-card">
          <p className="notice--error" role="alert">
            {t(store.state === 'error' ? (store.loadMessage ?? 'manage.loadError') : 'manage.noChanges')}
          </p>
          <p>
            <Link to={managePathOf(id)}>{t('reschedule.back')}</Link>
          </p>
        </div>
      )}
    </div>
  );
});

function EditCheckout({ orderId, cartId }: { orderId: string; cartId: string }) {
  const root = useStores();
  const navigate = useNavigate();
  // The edit's hold ran out while paying: back to the order, where the changes are gone.
  const editRoot = useMemo(() => root.forEditCart(() => navigate(managePathOf(orderId))), [root, navigate, orderId]);
  return (
    <StoresProvider store={editRoot}>
      <CheckoutScreen edit={{ orderId, cartId }} />
    </StoresProvider>
  );
}

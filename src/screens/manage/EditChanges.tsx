import { useNavigate } from 'react-router';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import type { ManageStore } from '../../stores/ManageStore';
import { formatMoney } from '../../domain/pricing';
import { formatSessionTime } from '../../domain/session-tabs';
import { editConfirmPath } from '../../domain/self-edit';

/**
 * This browser's unsaved changes (spec section 4: the edit cart, while it has an expiry): what confirming costs,
 * until when the new places are held, and Confirm (free here, else the checkout pays the difference) or Discard.
 */
export const EditChanges = observer(function EditChanges({ orderId, store }: { orderId: string; store: ManageStore }) {
  const { t } = useTranslation();
  const { config } = useStores();
  const navigate = useNavigate();
  const edit = store.edit;
  const saved = store.editState === 'saved' && !edit;
  const discarded = store.editState === 'discarded' && !edit;
  if (!edit)
    return saved || discarded ? (
      <p className="notice--success" role="status">
        {t(saved ? 'manage.saved' : 'manage.discarded')}
      </p>
    ) : null;
  const working = store.editState === 'working';
  const handleConfirm = async () => {
    if ((await store.confirmEdit()) === 'pay') navigate(editConfirmPath(orderId));
  };
  return (
    <section className="manage-edit" aria-labelledby="manage-edit-title">
      <h2 id="manage-edit-title">{t('manage.editTitle')}</h2>
      <p role="status">{t('manage.unsaved', { time: edit.expires_at ? formatSessionTime(edit.expires_at, config.timezone) : '' })}</p>
      <p className="manage-edit__cost">
        {store.editOutstanding > 0
          ? t('manage.editCost', { amount: formatMoney(store.editOutstanding, config.seller.currency) })
          : t('manage.editFree')}
      </p>
      {store.editMessage && (
        <p className="notice--error" role="alert">
          {t(store.editMessage)}
        </p>
      )}
      <p className="manage-actions">
        <button type="button" className="button" onClick={() => void handleConfirm()} aria-disabled={working}>
          {working ? t('manage.saving') : t('manage.confirmEdit')}
        </button>{' '}
        <button type="button" className="button button--secondary" onClick={() => void store.discardEdit()} aria-disabled={working}>
          {t('manage.discardEdit')}
        </button>
      </p>
    </section>
  );
});

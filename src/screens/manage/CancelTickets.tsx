import { useEffect, useRef } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import type { ManageStore } from '../../stores/ManageStore';
import { formatMoney } from '../../domain/pricing';

/**
 * The cancel section: cancelable tickets can be cancelled after a confirmation step; paid ones (where the seller's
 * rules allow it) say first what goes back to the payment they were bought with. Otherwise 'You must contact us to
 * cancel this order.' (spec sections 2 and 8).
 */
export const CancelTickets = observer(function CancelTickets({ store }: { store: ManageStore }) {
  const { t } = useTranslation();
  const { config } = useStores();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (store.cancelState === 'confirming') confirmRef.current?.focus();
  }, [store.cancelState]);
  const money = (minor: number) => formatMoney(minor, config.seller.currency);

  if (store.cancelState === 'done')
    return (
      <p className="notice--success" role="status">
        {store.refunded > 0 ? t('manage.cancelledRefund', { amount: money(store.refunded) }) : t('manage.cancelled')}
      </p>
    );
  if (!store.row?.cancelable)
    return (
      <p className="notice--error" role="status">
        {t(store.row?.reason === 'ticket_state_incorrect' ? 'manage.noValidTickets' : 'manage.contactUs')}
      </p>
    );
  const refund = store.refundAmount;
  return (
    <section aria-labelledby="manage-cancel">
      <h2 id="manage-cancel">{t('manage.cancelTitle')}</h2>
      <p>{refund > 0 ? t('manage.cancelIntroPaid', { amount: money(refund) }) : t('manage.cancelIntro')}</p>
      {store.cancelMessage && (
        <p className="notice--error" role="alert">
          {t(store.cancelMessage)}
        </p>
      )}
      {store.cancelState === 'confirming' || store.cancelState === 'working' ? (
        <div role="group" aria-labelledby="manage-confirm">
          <p id="manage-confirm">{refund > 0 ? t('manage.confirmQuestionPaid', { amount: money(refund) }) : t('manage.confirmQuestion')}</p>
          <p className="manage-actions">
            <button
              ref={confirmRef}
              type="button"
              className="button"
              onClick={store.confirmCancel}
              aria-disabled={store.cancelState === 'working'}
            >
              {store.cancelState === 'working' ? t('manage.cancelling') : t('manage.confirmYes')}
            </button>{' '}
            <button type="button" className="button button--secondary" onClick={store.keepTickets}>
              {t('manage.confirmNo')}
            </button>
          </p>
        </div>
      ) : (
        <p>
          <button type="button" className="button" onClick={store.askToCancel}>
            {t('manage.cancelButton')}
          </button>
        </p>
      )}
    </section>
  );
});

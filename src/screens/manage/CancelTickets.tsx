import { useEffect, useRef } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ManageStore } from '../../stores/ManageStore';

/**
 * The cancel-free-order section: cancelable free tickets can be cancelled after a confirmation step; otherwise
 * 'You must contact us to cancel this order.' (spec sections 2 and 8).
 */
export const CancelTickets = observer(function CancelTickets({ store }: { store: ManageStore }) {
  const { t } = useTranslation();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (store.cancelState === 'confirming') confirmRef.current?.focus();
  }, [store.cancelState]);

  if (store.cancelState === 'done')
    return (
      <p className="notice--success" role="status">
        {t('manage.cancelled')}
      </p>
    );
  if (!store.row?.cancelable)
    return (
      <p className="notice--error" role="status">
        {t(store.row?.reason === 'ticket_state_incorrect' ? 'manage.noValidTickets' : 'manage.contactUs')}
      </p>
    );
  return (
    <section aria-labelledby="manage-cancel">
      <h2 id="manage-cancel">{t('manage.cancelTitle')}</h2>
      <p>{t('manage.cancelIntro')}</p>
      {store.cancelMessage && (
        <p className="notice--error" role="alert">
          {t(store.cancelMessage)}
        </p>
      )}
      {store.cancelState === 'confirming' || store.cancelState === 'working' ? (
        <div role="group" aria-labelledby="manage-confirm">
          <p id="manage-confirm">{t('manage.confirmQuestion')}</p>
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

import { useEffect } from 'react';
import { ScreenContent } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { Link, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { ManageStore } from '../../stores/ManageStore';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { CancelTickets } from './CancelTickets';
import { EditChanges } from './EditChanges';
import { OrderVisits } from './OrderVisits';
import { useManageSignature } from './signature';
import { manageView } from './visits';
import '../account/account.css';
import './manage.css';

/**
 * /manage/{id} (spec section 2): the cancel-free-order screen, and in edit-order mode the edit-order screen (each
 * visit's reschedule, the unsaved changes to confirm or discard), for the visitor who bought the order or holds its
 * link.
 */
export const ManageScreen = observer(function ManageScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { api, config } = useStores();
  const location = useLocation();
  const signature = useManageSignature(id);
  const currency = config.seller.currency;
  const store = useScreenStore(() => new ManageStore({ api, orderId: id, signature, currency }), [api, id, signature, currency]);
  // Back from paying the difference (/manage/{id}/confirm): the changes are saved.
  const saved = (location.state as { saved?: boolean } | null)?.saved === true;
  useEffect(() => {
    if (saved) store.markSaved();
  }, [saved, store]);
  const title = store.orderNumber ? t('manage.title', { number: store.orderNumber }) : t('manage.titleLoading');
  useDocumentTitle(title);
  const view = manageView(store.answer, config.timezone);
  return (
    <div className="container page recovery-page">
      <ScreenContent screen="manage">
        <h1 className="page-title">{title}</h1>
        {store.state === 'loading' && (
          <p className="page-status" role="status">
            {t('app.loading')}
          </p>
        )}
        {store.state === 'error' && (
          <div className="recovery-card">
            <p className="notice--error" role="alert">
              {t(store.loadMessage ?? 'manage.loadError')}
            </p>
            <p>
              <Link to="/">{t('app.continue')}</Link>
            </p>
          </div>
        )}
        {store.state === 'ready' && store.answer && (
          <div className="recovery-card">
            <EditChanges orderId={id} store={store} />
            <OrderVisits orderId={id} view={view} />
            <CancelTickets store={store} />
          </div>
        )}
      </ScreenContent>
    </div>
  );
});

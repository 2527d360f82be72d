import { useEffect, useState } from 'react';
import { ScreenContent } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { ManageStore } from '../../stores/ManageStore';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { orderViews } from '../account/views';
import { CancelTickets } from './CancelTickets';
import '../account/account.css';

const SIGNATURE_KEY = (orderId: string) => `manage-signature:${orderId}`;

/**
 * The manage link's signature: read from the e-mail's `sig` parameter once, then kept for this tab only
 * (sessionStorage) and taken out of the address, so it does not stay in the history or travel on in a Referer.
 */
function useManageSignature(orderId: string): string | null {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const fromLink = search.get('sig');
  const [signature] = useState(() => {
    if (fromLink) sessionStorage.setItem(SIGNATURE_KEY(orderId), fromLink);
    return fromLink ?? sessionStorage.getItem(SIGNATURE_KEY(orderId));
  });
  useEffect(() => {
    if (fromLink) void navigate({ search: '' }, { replace: true });
  }, [fromLink, navigate]);
  return signature;
}

/** /manage/{id}: the cancel-free-order screen (spec section 2) for the visitor who bought the order or holds its link. */
export const ManageScreen = observer(function ManageScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { api, config } = useStores();
  const signature = useManageSignature(id);
  const store = useScreenStore(() => new ManageStore({ api, orderId: id, signature }), [api, id, signature]);
  const title = store.orderNumber ? t('manage.title', { number: store.orderNumber }) : t('manage.titleLoading');
  useDocumentTitle(title);
  const order = orderViews(store.answer, config.timezone)[0];
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
        {store.state === 'ready' && order && (
          <div className="recovery-card">
            <h2 id="manage-tickets">{t('manage.ticketsTitle')}</h2>
            <ul className="account-tickets" aria-labelledby="manage-tickets">
              {order.tickets.map((ticket) => (
                <li key={ticket.id} className="account-tickets__item">
                  <span className="account-tickets__name">{[ticket.event, ticket.type].filter(Boolean).join(' · ')}</span>
                  {ticket.when && <span>{ticket.when}</span>}
                  {ticket.admitName && <span>{t('orders.admitName', { name: ticket.admitName })}</span>}
                  {ticket.state === 'cancelled' || ticket.state === 'unbooked' ? (
                    <strong>{t('manage.ticketCancelled')}</strong>
                  ) : (
                    ticket.scanCode && (
                      <span>
                        {t('orders.ticketCode')} <code className="account-details__code">{ticket.scanCode}</code>
                      </span>
                    )
                  )}
                </li>
              ))}
            </ul>
            <CancelTickets store={store} />
          </div>
        )}
      </ScreenContent>
    </div>
  );
});

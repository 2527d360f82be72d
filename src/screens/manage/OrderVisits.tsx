import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { reschedulePath } from '../../domain/self-edit';
import type { ManageView } from './visits';
import { TicketList } from '../account/TicketList';

/**
 * The order's visits (its live tickets by session) and the tickets cancelled; in edit-order mode each visit whose
 * tickets may move links to its reschedule screen, and says where this browser's unsaved edit moves it.
 */
export const OrderVisits = observer(function OrderVisits({ orderId, view }: { orderId: string; view: ManageView }) {
  const { t } = useTranslation();
  return (
    <>
      <h2 id="manage-tickets">{t('manage.ticketsTitle')}</h2>
      <ul className="manage-visits" aria-labelledby="manage-tickets">
        {view.visits.map((visit) => (
          <li key={visit.key} className="manage-visit">
            <p className="manage-visit__title" id={`visit-${visit.key}`}>
              <span className="account-tickets__name">{visit.event}</span>
              {visit.when && <span>{visit.when}</span>}
            </p>
            {visit.movingTo && (
              <p className="manage-visit__moving notice--warning" role="status">
                {t('manage.movingTo', { when: visit.movingTo })}
              </p>
            )}
            {/* The visit names the event and the time once; each ticket its type, holder and code. */}
            <TicketList tickets={visit.tickets.map((ticket) => ({ ...ticket, event: '', when: '' }))} labelledBy={`visit-${visit.key}`} />
            {visit.sessionId && visit.movableIds.length > 0 && (
              <p>
                <Link
                  className="button button--secondary"
                  to={reschedulePath(orderId, visit.sessionId)}
                  aria-label={t('manage.rescheduleVisit', { event: visit.event, when: visit.when })}
                >
                  {t('manage.reschedule')}
                </Link>
              </p>
            )}
          </li>
        ))}
        {view.cancelled.map((ticket) => (
          <li key={ticket.id} className="manage-visit">
            <p className="manage-visit__title">
              <span className="account-tickets__name">{[ticket.event, ticket.type].filter(Boolean).join(' · ')}</span>
              {ticket.when && <span>{ticket.when}</span>}
              {ticket.admitName && <span>{t('orders.admitName', { name: ticket.admitName })}</span>}
              <strong>{t('manage.ticketCancelled')}</strong>
            </p>
          </li>
        ))}
      </ul>
    </>
  );
});

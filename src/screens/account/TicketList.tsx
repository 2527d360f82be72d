import { useTranslation } from 'react-i18next';
import type { TicketView } from './views';

/** The tickets of an order or a visit: event, type, time, seat, holder and ticket code. */
export function TicketList({ tickets, labelledBy }: { tickets: TicketView[]; labelledBy: string }) {
  const { t } = useTranslation();
  return (
    <ul className="account-tickets" aria-labelledby={labelledBy}>
      {tickets.map((ticket) => (
        <li key={ticket.id} className="account-tickets__item">
          <span className="account-tickets__name">{[ticket.event, ticket.type].filter(Boolean).join(' · ')}</span>
          {ticket.when && <span>{ticket.when}</span>}
          {ticket.seat && <span>{t('seats.label', ticket.seat)}</span>}
          {ticket.admitName && <span>{t('orders.admitName', { name: ticket.admitName })}</span>}
          {ticket.scanCode && (
            <span>
              {t('orders.ticketCode')} <code className="account-details__code">{ticket.scanCode}</code>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

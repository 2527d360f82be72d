import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import type { OrderAnswer as OrderResponse } from '../../contract/cart';
import { orderQrUrl } from '../../contract/urls';
import { walletPassUrl, type WalletProvider } from '../../contract/wallet';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { sessionLabel } from '../../domain/dates';
import { bySeat, seatPlace } from '../../domain/seat-place';

const QR_SIZE = 200;

type WalletPasses = (ticketId: string) => Partial<Record<WalletProvider, string>> | null;

/** One booked order: number, QR code, a 'view tickets' link to its ticket list, its tickets' wallet passes, and totals. */
export const OrderSummary = observer(function OrderSummary({
  order,
  qrImage,
  walletPasses,
}: {
  order: OrderResponse;
  qrImage: string | null;
  walletPasses: WalletPasses;
}) {
  const { t } = useTranslation();
  const { config } = useStores();
  const row = order.ticket_order._data[0];
  const money = (v: string) => formatMoney(decimalToMinor(v), config.seller.currency);
  // Seated tickets in the order their row reads, then the others as the order lists them.
  const tickets = [...(order.ticket?._data ?? [])].sort((a, b) => bySeat(a.seat, b.seat));
  const typeName = (id: string) => order.ticket_type?._data.find((x) => x.id === id)?.name ?? '';
  const eventName = (id: string) => order.event_template?._data.find((x) => x.id === id)?.name ?? '';
  // A gift card bought: the card it issued, whose number is what spends it (issue 13).
  const giftCardOf = (ticketId: string) => order.ledger?._data.find((c) => c.ticket_id === ticketId) ?? null;
  const ticketsId = `order-${row.id}-tickets`;
  const headingId = `order-${row.id}-title`;
  return (
    <section className="order-summary" aria-labelledby={headingId}>
      <h2 id={headingId} className="order-summary__title">
        {t('completion.orderNumber', { number: row.order_number })}
      </h2>
      <div className="order-summary__body">
        <img
          className="order-summary__qr"
          width={QR_SIZE}
          height={QR_SIZE}
          src={qrImage ?? orderQrUrl(config.deployment.cachedApiBaseUrl, row.id, config.seller.id)}
          alt={t('completion.qrAlt', { number: row.order_number })}
        />
        <div>
          <p>{t('completion.ticketCount', { count: tickets.length })}</p>
          <p>
            <a href={`#${ticketsId}`} className="button">
              {t('completion.viewTickets')}
            </a>
          </p>
          {Number(row.total_discount) > 0 && (
            <p className="order-summary__discount">{t('completion.discount', { amount: money(row.total_discount) })}</p>
          )}
          <p className="order-summary__total">{t('completion.total', { total: money(row.total_after_fees_price) })}</p>
        </div>
      </div>
      <h3 id={ticketsId} tabIndex={-1} className="order-summary__tickets-title">
        {t('completion.ticketsTitle')}
      </h3>
      <ul className="order-summary__tickets">
        {tickets.map((ticket) => {
          const card = giftCardOf(ticket.id);
          const passes = walletPasses(ticket.id);
          const name = t('wallet.ticketName', { event: eventName(ticket.event_template_id), type: typeName(ticket.ticket_type_id) });
          return (
            <li key={ticket.id} className="order-summary__ticket">
              <span className="order-summary__ticket-name">
                {eventName(ticket.event_template_id)} · {typeName(ticket.ticket_type_id)}
              </span>
              {ticket.start_datetime && <span>{sessionLabel(ticket.start_datetime, ticket.timezone ?? config.timezone)}</span>}
              {ticket.seat && <span className="order-summary__seat">{t('seats.label', seatPlace(ticket.seat))}</span>}
              {card && (
                <span className="order-summary__gift-card">
                  {t('completion.giftCard', { number: card.number, balance: money(card.balance) })}
                </span>
              )}
              <span>{money(ticket.adjusted_value)}</span>
              {passes && (
                <ul className="order-summary__wallet">
                  {(['apple', 'google'] as const).map((provider) =>
                    passes[provider] ? (
                      <li key={provider}>
                        <a href={walletPassUrl(config.deployment.apiBaseUrl, ticket.id, provider, passes[provider]!)}>
                          {t(`wallet.${provider}`)}
                          <span className="visually-hidden"> ({name})</span>
                        </a>
                      </li>
                    ) : null,
                  )}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
});

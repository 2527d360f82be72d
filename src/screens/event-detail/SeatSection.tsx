import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ReservationStore } from '../../stores/ReservationStore';
import { seatPlace } from '../../domain/seat-place';

// The map, its pan and zoom library and its styles are a chunk of their own: only events that sell seats fetch it.
const loadSelector = () => import('../../components/seat-map/SeatSelector');
const SeatSelector = lazy(loadSelector);

/**
 * Seat selection (spec section 2): 'find seats' until every seated ticket has a confirmed seat, then the list of
 * chosen seats and 'change selected seats'; the selector opens below (inline) or over the page (small screens).
 */
export const SeatSection = observer(function SeatSection({ store, currency }: { store: ReservationStore; currency: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const seats = store.seats;
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    // Fetched while the shopper chooses tickets, so the selector opens within its 50 ms delay.
    if (seats.eventIsSeated) void loadSelector();
  }, [seats.eventIsSeated]);

  const closed = seats.selector === 'closed';
  useEffect(() => {
    // Back from the selector, focus returns to the button that opens it again.
    if (closed && wasOpen.current) opener.current?.focus();
    wasOpen.current = !closed;
  }, [closed]);

  if (!seats.needsSeats) return null;
  const label = (seat: Parameters<typeof seatPlace>[0]) => t('seats.label', seatPlace(seat));

  return (
    <section className="reserve-section seat-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="reserve-section__title">
        {t('seats.title')}
      </h3>
      {seats.ready && (
        <>
          <h4 className="seat-section__subtitle">{t('seats.chosenTitle')}</h4>
          <ul className="seat-section__list">
            {seats.chosenLines.map(({ seat, type }) => (
              <li key={seat.seat_template_id}>{type ? t('seats.seatLine', { type: type.name, seat: label(seat) }) : label(seat)}</li>
            ))}
          </ul>
        </>
      )}
      {closed && (
        <button
          ref={opener}
          type="button"
          className={seats.ready ? 'button button--secondary' : 'button'}
          onClick={() => void seats.open()}
        >
          {seats.ready ? t('seats.change') : t('seats.find')}
        </button>
      )}
      {!closed && (
        <Suspense
          fallback={
            <p role="status" className="reserve__status">
              {t('seats.loading')}
            </p>
          }
        >
          <SeatSelector store={store} currency={currency} />
        </Suspense>
      )}
    </section>
  );
});

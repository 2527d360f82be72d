import { useEffect, useId, useRef, useSyncExternalStore } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ReservationStore } from '../../stores/ReservationStore';
import type { SeatChoice } from '../../stores/reservation/SeatChoice';
import type { Seat } from '../../domain/seating';
import { seatPlace } from '../../domain/seat-place';
import { Modal } from '../Modal';
import { SeatMap } from './SeatMap';
import { SeatLegend } from './SeatLegend';
import '../../styles/seats.css';

/** The layout's small-screen breakpoint (styles: 48rem): the map covers the screen there, and sits inline above it. */
const SMALL_SCREEN = '(max-width: 48rem)';
const subscribe = (onChange: () => void) => {
  const query = window.matchMedia(SMALL_SCREEN);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const useSmallScreen = () => useSyncExternalStore(subscribe, () => window.matchMedia(SMALL_SCREEN).matches);

/**
 * The open seat selector (spec section 2): what to choose and 'Change Tickets', the group filter (with more than one
 * group), the map with its zoom, the legend, what was chosen, 'Confirm Selection' (only once every seated ticket has
 * a seat) and 'Back' (which leaves the choice). Full-screen dialog on small screens, inline on larger ones.
 */
export default observer(function SeatSelector({ store, currency }: { store: ReservationStore; currency: string }) {
  const { t } = useTranslation();
  const small = useSmallScreen();
  const titleId = useId();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const seats = store.seats;
  const open = seats.selector === 'open';

  useEffect(() => {
    // Inline, focus moves to the selector's title once it is open, so a screen reader starts there.
    if (open && !small) titleRef.current?.focus();
  }, [open, small]);

  const body = open ? <SelectorBody seats={seats} currency={currency} small={small} /> : <p role="status">{t('seats.loading')}</p>;
  if (small) {
    return (
      <Modal title={t('seats.mapTitle')} onClose={seats.leave} fullScreen>
        {body}
      </Modal>
    );
  }
  return (
    <section className="seat-selector" aria-labelledby={titleId}>
      <h4 id={titleId} ref={titleRef} tabIndex={-1} className="seat-selector__title">
        {t('seats.mapTitle')}
      </h4>
      {body}
    </section>
  );
});

const SelectorBody = observer(function SelectorBody({ seats, currency, small }: { seats: SeatChoice; currency: string; small: boolean }) {
  const { t } = useTranslation();
  const hintId = useId();
  const label = (list: Seat[]) => list.map((s) => t('seats.label', seatPlace(s))).join(', ');
  const groups = seats.needs.map((n) => t('seats.infoGroup', { count: n.count, group: n.group.name })).join(', ');
  const message = seats.message;

  const handleChangeTickets = () => {
    seats.leave();
    // Back to the steppers of the quantity section.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('.quantity-section button:not([disabled])')?.focus());
  };

  return (
    <div className="seat-selector__body">
      {seats.lost.length > 0 && (
        <p className="notice notice--error" role="alert">
          {t('seats.lost', { count: seats.lost.length, seats: label(seats.lost) })}
        </p>
      )}
      <div className="notice notice--info seat-selector__info">
        <p>{t('seats.info', { groups })}</p>
        <button type="button" className="button button--secondary" onClick={handleChangeTickets}>
          {t('seats.changeTickets')}
        </button>
      </div>
      {seats.needs.length > 1 && (
        <div className="seat-selector__filter" role="group" aria-label={t('seats.filterLabel')}>
          {[null, ...seats.needs.map((n) => n.group.id)].map((id) => (
            <button
              key={id ?? 'all'}
              type="button"
              className="seat-selector__filter-button"
              aria-pressed={seats.filter === id}
              onClick={() => seats.setFilter(id)}
            >
              {id ? seats.needs.find((n) => n.group.id === id)!.group.name : t('seats.filterAll')}
            </button>
          ))}
        </div>
      )}
      <SeatMap seats={seats} currency={currency} fitWanted={small} />
      <SeatLegend needs={seats.needs} />
      <div className="seat-selector__status" role="status">
        <p>{t('seats.progress', { chosen: seats.chosenCount, count: seats.neededCount })}</p>
        {message && <p>{t(message.key, { ...message.params, seats: label(message.seats ?? []) })}</p>}
      </div>
      <div className="seat-selector__actions">
        <button
          type="button"
          className="button"
          aria-disabled={!seats.satisfied || undefined}
          aria-describedby={seats.satisfied ? undefined : hintId}
          onClick={seats.confirm}
        >
          {t('seats.confirm')}
        </button>
        <button type="button" className="button button--secondary" onClick={seats.leave}>
          {t('seats.back')}
        </button>
        {!seats.satisfied && (
          <p id={hintId} className="seat-selector__hint">
            {t('seats.confirmHint')}
          </p>
        )}
      </div>
    </div>
  );
});

import { useTranslation } from 'react-i18next';
import type { SeatState } from '../../contract/seating';
import type { SeatNeed } from '../../stores/reservation/SeatChoice';
import { SeatMark } from './SeatMark';

const Swatch = ({ state, color }: { state: SeatState; color?: string }) => (
  <svg className={`seat-legend__swatch seat seat--${state}`} viewBox="-12 -12 24 24" width="24" height="24" aria-hidden="true">
    <SeatMark r={9} state={state} color={color} />
  </svg>
);

/** Spec section 2: Available (one swatch per group, in its palette colour), Sold out, Unavailable, Selected. */
export function SeatLegend({ needs }: { needs: SeatNeed[] }) {
  const { t } = useTranslation();
  return (
    <div className="seat-legend">
      <ul className="seat-legend__items" aria-label={t('seats.legendTitle')}>
        {needs.length > 1 ? (
          needs.map((n) => (
            <li key={n.group.id}>
              <Swatch state="available" color={n.color} />
              {t('seats.legend.group', { group: n.group.name })}
            </li>
          ))
        ) : (
          <li>
            <Swatch state="available" color={needs[0]?.color} />
            {t('seats.legend.available')}
          </li>
        )}
        <li>
          <Swatch state="booked" />
          {t('seats.legend.booked')}
        </li>
        <li>
          <Swatch state="unavailable" />
          {t('seats.legend.unavailable')}
        </li>
        <li>
          <Swatch state="selected" />
          {t('seats.legend.selected')}
        </li>
      </ul>
    </div>
  );
}

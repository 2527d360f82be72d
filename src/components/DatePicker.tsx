import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarDayRow } from '../contract/catalogue';
import { dayPriceText, formatShortDate, isDayAvailable } from '../domain/calendar-days';
import { longDateLabel } from '../domain/dates';

// The month grid is only needed once the shopper asks for more dates.
const CalendarModal = lazy(async () => ({ default: (await import('./CalendarModal')).CalendarModal }));

interface Props {
  /** the date buttons: the next dates of the calendar (spec section 9: up to 8) */
  buttons: CalendarDayRow[];
  /** every calendar row, for the month grid */
  calendar: CalendarDayRow[];
  selectedDate: string | null;
  currency: string;
  onSelect: (date: string) => void;
}

/** Spec section 2: up to 8 date buttons plus 'More dates', a calendar modal of 6 weeks by 7 days. */
export function DatePicker({ buttons, calendar, selectedDate, currency, onSelect }: Props) {
  const { t } = useTranslation();
  const legendId = useId();
  const [open, setOpen] = useState(false);
  const selectedOutsideButtons = selectedDate && !buttons.some((b) => b.date === selectedDate);

  const handleSelectFromCalendar = (date: string) => {
    setOpen(false);
    onSelect(date);
  };

  return (
    <section className="reserve-section date-picker" aria-labelledby={legendId}>
      <h3 id={legendId} className="reserve-section__title">
        {t('datePicker.legend')}
      </h3>
      <ul className="date-picker__buttons">
        {buttons.map((day) => {
          const available = isDayAvailable(day);
          const selected = day.date === selectedDate;
          const price = available ? dayPriceText(day, currency) : null;
          return (
            <li key={day.date}>
              <button
                type="button"
                className={`date-button${selected ? ' date-button--selected' : ''}`}
                aria-pressed={selected}
                disabled={!available}
                title={day.tooltip?.join('\n') || undefined}
                onClick={() => onSelect(day.date)}
              >
                <span className="date-button__day">{formatShortDate(day.date)}</span>
                {available ? (
                  price && <span className="date-button__price">{price}</span>
                ) : (
                  <span className="date-button__status">
                    {day.status === 'sold_out' ? t('datePicker.soldOut') : t('datePicker.unavailable')}
                  </span>
                )}
                {[...(day.badges ?? []), ...(day.annotations ?? [])].slice(0, 2).map((note) => (
                  <span key={note} className="date-button__note">
                    {note}
                  </span>
                ))}
              </button>
            </li>
          );
        })}
        <li>
          <button type="button" className="date-button date-button--more" aria-haspopup="dialog" onClick={() => setOpen(true)}>
            {t('datePicker.moreDates')}
          </button>
        </li>
      </ul>
      {selectedOutsideButtons && (
        <p className="date-picker__selected">{t('datePicker.selectedDate', { date: longDateLabel(selectedDate) })}</p>
      )}
      {open && (
        <Suspense fallback={null}>
          <CalendarModal
            calendar={calendar}
            selectedDate={selectedDate}
            currency={currency}
            onSelect={handleSelectFromCalendar}
            onClose={() => setOpen(false)}
          />
        </Suspense>
      )}
    </section>
  );
}

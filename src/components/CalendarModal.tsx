import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarDayRow } from '../contract/catalogue';
import { addDays, longDateLabel } from '../domain/dates';
import { calendarMonth, compareMonths, DAYS_PER_WEEK, type YearMonth } from '../domain/calendar-grid';
import { formatMoney } from '../domain/pricing';
import { Modal } from './Modal';
import { dayPrice, isDayAvailable } from '../domain/calendar-days';

const monthOf = (date: string): YearMonth => ({ year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)) });
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6].map((d) => new Date(Date.UTC(2026, 1, 1 + d))); // 1 Feb 2026 is a Sunday
const weekdayShort = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });
const weekdayLong = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'UTC' });
const monthTitle = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
/** Arrow keys move focus by 1 or 7 days (spec section 2). */
const KEY_STEPS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -DAYS_PER_WEEK, ArrowDown: DAYS_PER_WEEK };

interface Props {
  calendar: CalendarDayRow[];
  selectedDate: string | null;
  currency: string;
  onSelect: (date: string) => void;
  onClose: () => void;
}

/**
 * The month grid of the date picker: 6 weeks by 7 days, prev/next stop at the first and last month with
 * dates, a roving focus moved by the arrow keys, Enter (a native button press) chooses the focused day.
 */
export function CalendarModal({ calendar, selectedDate, currency, onSelect, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const hintId = useId();
  const byDate = useMemo(() => new Map(calendar.map((d) => [d.date, d])), [calendar]);
  const firstAvailable = calendar.find(isDayAvailable)?.date ?? calendar[0]?.date ?? null;
  const bounds = useMemo(
    () => (calendar.length ? { first: monthOf(calendar[0].date), last: monthOf(calendar[calendar.length - 1].date) } : undefined),
    [calendar],
  );
  const startDate = selectedDate ?? firstAvailable;
  const [month, setMonth] = useState<YearMonth>(() => (startDate ? monthOf(startDate) : bounds?.first) ?? { year: 2026, month: 1 });
  const [focusDate, setFocusDate] = useState<string | null>(startDate);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const moved = useRef(false);
  const grid = calendarMonth(month, bounds);

  // The dialog focuses its first control when it opens; the focused day takes over right after.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (focusDate) buttons.current.get(focusDate)?.focus();
    }, 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (moved.current && focusDate) buttons.current.get(focusDate)?.focus();
    moved.current = false;
  }, [focusDate, month]);

  const inBounds = (m: YearMonth) => !bounds || (compareMonths(m, bounds.first) >= 0 && compareMonths(m, bounds.last) <= 0);

  const handleKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const step = KEY_STEPS[event.key];
    if (!step || !focusDate) return;
    event.preventDefault();
    const next = addDays(focusDate, step);
    const nextMonth = monthOf(next);
    if (!inBounds(nextMonth)) return;
    moved.current = true;
    if (compareMonths(nextMonth, month) !== 0) setMonth(nextMonth);
    setFocusDate(next);
  };

  const goToMonth = (m: YearMonth | null) => {
    if (!m) return;
    setMonth(m);
    const prefix = `${m.year}-${String(m.month).padStart(2, '0')}`;
    setFocusDate(calendar.find((d) => d.date.startsWith(prefix) && isDayAvailable(d))?.date ?? `${prefix}-01`);
  };

  const title = monthTitle.format(new Date(Date.UTC(month.year, month.month - 1, 1)));
  const focusInMonth = focusDate && compareMonths(monthOf(focusDate), month) === 0 ? focusDate : null;
  const rovingDate = focusInMonth ?? grid.weeks.flat().find((c) => c.inMonth)!.date;

  return (
    <Modal title={t('calendar.title')} onClose={onClose}>
      <div className="calendar">
        <div className="calendar__nav">
          <button
            type="button"
            className="calendar__nav-button"
            onClick={() => goToMonth(grid.prev)}
            disabled={!grid.prev}
            aria-label={t('calendar.previousMonth')}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <h3 id={titleId} className="calendar__month" aria-live="polite">
            {title}
          </h3>
          <button
            type="button"
            className="calendar__nav-button"
            onClick={() => goToMonth(grid.next)}
            disabled={!grid.next}
            aria-label={t('calendar.nextMonth')}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
        <p id={hintId} className="visually-hidden">
          {t('calendar.instructions')}
        </p>
        <table role="grid" className="calendar__grid" aria-labelledby={titleId} aria-describedby={hintId} onKeyDown={handleKeyDown}>
          <thead>
            <tr>
              {WEEKDAYS.map((d) => (
                <th key={d.getUTCDay()} scope="col" abbr={weekdayLong.format(d)}>
                  {weekdayShort.format(d)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.weeks.map((week) => (
              <tr key={week[0].date}>
                {week.map((cell) => {
                  if (!cell.inMonth) return <td key={cell.date} role="gridcell" className="calendar__cell calendar__cell--outside" />;
                  const day = byDate.get(cell.date);
                  const available = isDayAvailable(day);
                  const selected = cell.date === selectedDate;
                  const minor = day && available ? dayPrice(day) : null;
                  // Days the API says nothing about (past, beyond the sales window) are simply dimmed.
                  const soldOut = day?.status === 'sold_out';
                  const status = !day || available ? null : soldOut ? t('calendar.soldOut') : t('calendar.unavailable');
                  return (
                    <td key={cell.date} role="gridcell" aria-selected={selected} className="calendar__cell">
                      <button
                        type="button"
                        tabIndex={cell.date === rovingDate ? 0 : -1}
                        ref={(el) => {
                          if (el) buttons.current.set(cell.date, el);
                          else buttons.current.delete(cell.date);
                        }}
                        className={`calendar-day${available ? '' : ' calendar-day--unavailable'}${selected ? ' calendar-day--selected' : ''}`}
                        aria-disabled={!available || undefined}
                        title={day?.tooltip?.join('\n') || undefined}
                        onFocus={() => setFocusDate(cell.date)}
                        onClick={() => {
                          if (available) onSelect(cell.date);
                        }}
                      >
                        {/* Named by the API's ariaLabel; the short visible parts are hidden from the name. */}
                        <span className="visually-hidden">
                          {day?.ariaLabel ?? t('calendar.dayUnavailable', { date: longDateLabel(cell.date) })}
                        </span>
                        <span className="calendar-day__number" aria-hidden="true">
                          {cell.day}
                        </span>
                        {minor !== null && (
                          <span className="calendar-day__price" aria-hidden="true">
                            {formatMoney(minor, currency).replace(/\.00$/, '')}
                          </span>
                        )}
                        {status && (
                          <span className={`calendar-day__status${soldOut ? '' : ' calendar-day__status--unavailable'}`} aria-hidden="true">
                            {status}
                          </span>
                        )}
                        {available &&
                          [...(day?.badges ?? []), ...(day?.annotations ?? [])].slice(0, 1).map((note) => (
                            <span key={note} className="calendar-day__note" aria-hidden="true">
                              {note}
                            </span>
                          ))}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {/* The last tabbable control of the dialog, so Tab from the day grid stays inside it. */}
        <div className="calendar__footer">
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('calendar.cancel')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

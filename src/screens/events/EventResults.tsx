import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { hasActiveFilters, type EventFilters } from '../../domain/event-filters';
import { EventListItem } from './EventListItem';

/** The result count (announced politely), the list, and the empty and error states. */
export const EventResults = observer(function EventResults({ filters }: { filters: EventFilters }) {
  const { t } = useTranslation();
  const { events } = useStores();
  const status =
    events.state === 'ready' ? t('events.resultCount', { count: events.count }) : events.state === 'error' ? '' : t('events.loading');

  return (
    <section className="event-results" aria-labelledby="event-results-count">
      {/* Kept in the DOM across states so screen readers announce each new count. */}
      <p id="event-results-count" className="event-results__count" role="status" aria-live="polite">
        {status}
      </p>
      {events.state === 'error' && (
        <div className="notice notice--error" role="alert">
          <p>{t('events.loadError')}</p>
          <button type="button" className="button" onClick={() => void events.loadEvents(filters)}>
            {t('events.retry')}
          </button>
        </div>
      )}
      {events.state === 'ready' && events.count === 0 && (
        <div className="empty-state">
          <p>{t('events.empty')}</p>
          {hasActiveFilters(filters) && <Link to="/events">{t('events.clearFilters')}</Link>}
        </div>
      )}
      {events.count > 0 && (
        <ul
          className={`event-list${events.state === 'loading' ? ' event-list--stale' : ''}`}
          aria-busy={events.state === 'loading' || undefined}
        >
          {events.events.map((event, index) => (
            <EventListItem key={event.id} event={event} venue={events.venueOf(event)} eager={index < 3} />
          ))}
        </ul>
      )}
    </section>
  );
});

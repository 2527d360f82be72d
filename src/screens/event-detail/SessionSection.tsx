import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import type { ReservationStore } from '../../stores/ReservationStore';
import { SessionPicker } from '../../components/SessionPicker';
import { formatSessionTime, isSessionSoldOut } from '../../domain/session-tabs';
import { cartVisits, conflictRules, findConflict } from '../../domain/conflicts';
import type { SessionRow } from '../../contract/catalogue';

const DEFAULT_REMAINING_THRESHOLD = 10;

/** The times of the chosen date; nothing until a date is chosen. */
export const SessionSection = observer(function SessionSection({ store }: { store: ReservationStore }) {
  const { t } = useTranslation();
  const { config, cart } = useStores();
  const titleId = useId();
  const web = config.storefront.web as { show_remaining_session_capacity_threshold?: number | null } | undefined;
  const threshold =
    web && 'show_remaining_session_capacity_threshold' in web
      ? (web.show_remaining_session_capacity_threshold ?? null)
      : DEFAULT_REMAINING_THRESHOLD;

  // config.web.hide_sold_out_sessions: sold-out times are left out instead of shown disabled.
  const hideSoldOut = store.event?.config?.web?.hide_sold_out_sessions === true;
  const sessions = hideSoldOut ? store.sessions.filter((s) => !isSessionSoldOut(s)) : store.sessions;
  // Conflict avoidance (issue 16): a time that overlaps a visit in the cart is disabled, and says which.
  const rules = conflictRules(config.storefront);
  const event = store.event;
  const visits = rules.enabled && event ? cartVisits(cart.items) : [];
  const conflictOf = (session: SessionRow): string | null => {
    // An add-on that must fit its visit (upsell chains, issue 16): a time outside it says which visit.
    const outside = store.visit.outsideVisit(session.start_datetime);
    if (outside && outside.start)
      return t('sessions.outsideVisit', { event: outside.name, time: formatSessionTime(String(outside.start), store.timezone) });
    if (!event || visits.length === 0) return null;
    const other = findConflict(
      { sessionId: session.id, start: session.start_datetime, end: session.end_datetime, category: event.category, meta: event.meta },
      visits,
      rules,
    );
    return other ? t('sessions.conflict', { event: other.name, time: formatSessionTime(other.start, store.timezone) }) : null;
  };
  let content;
  if (!store.selectedDate) content = <p className="reserve-section__hint">{t('sessions.selectDateFirst')}</p>;
  else if (store.sessionsLoading) content = <p role="status">{t('sessions.loading')}</p>;
  else if (sessions.length === 0) content = <p>{t('sessions.none')}</p>;
  else {
    content = (
      <SessionPicker
        sessions={sessions}
        tabsConfig={store.event?.config?.web?.session_picker_tabs}
        timezone={store.timezone}
        selectedId={store.selectedSessionId}
        remainingThreshold={threshold}
        onSelect={(id) => void store.selectSession(id)}
        unavailableReason={conflictOf}
      />
    );
  }
  return (
    <section className="reserve-section session-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="reserve-section__title">
        {t('sessions.legend')}
      </h3>
      {content}
    </section>
  );
});

import { useEffect, useId } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { RescheduleStore } from '../../stores/RescheduleStore';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { DatePicker } from '../../components/DatePicker';
import { SessionPicker } from '../../components/SessionPicker';
import { ScreenContent } from '../../components/ScreenSections';
import { formatMoney } from '../../domain/pricing';
import { sessionLabel } from '../../domain/dates';
import { managePathOf } from '../../domain/self-edit';
import { useManageSignature } from './signature';
import '../account/account.css';
import '../../styles/reserve.css';
import './manage.css';

/**
 * /manage/{orderId}/reschedule/{sessionId} (spec section 2, edit-order mode): the order's tickets at that time move to
 * another date and time of the same event. A pricier time says so first (the cost-increase warning); the move waits in
 * the order's edit, which the manage screen confirms (paying the difference) or discards.
 */
export const RescheduleScreen = observer(function RescheduleScreen() {
  const { t } = useTranslation();
  const { id = '', sessionId = '' } = useParams();
  const { api, config } = useStores();
  const navigate = useNavigate();
  const signature = useManageSignature(id);
  const timezone = config.timezone;
  const store = useScreenStore(
    () => new RescheduleStore({ api, orderId: id, sessionId, signature, timezone }),
    [api, id, sessionId, signature, timezone],
  );
  const timesId = useId();
  useDocumentTitle(t('reschedule.title'));
  useEffect(() => {
    if (store.done) navigate(managePathOf(id));
  }, [store.done, navigate, id]);
  const currency = config.seller.currency;
  const back = (
    <p>
      <Link to={managePathOf(id)}>{t('reschedule.back')}</Link>
    </p>
  );

  let body;
  if (store.state === 'loading')
    body = (
      <p className="page-status" role="status">
        {t('app.loading')}
      </p>
    );
  else if (store.state === 'error')
    body = (
      <p className="notice--error" role="alert">
        {t(store.loadMessage ?? 'manage.loadError')}
      </p>
    );
  else if (store.tickets.length === 0)
    body = (
      <p className="notice--error" role="alert">
        {t('manage.contactToReschedule')}
      </p>
    );
  else {
    const chosen = store.selectedSession;
    body = (
      <form
        className="reschedule-form"
        onSubmit={(e) => {
          e.preventDefault();
          void store.submit();
        }}
      >
        <p className="reschedule-current">
          {t('reschedule.current', {
            event: store.eventName,
            when: store.currentStart ? sessionLabel(store.currentStart, timezone) : '',
            count: store.tickets.length,
          })}
        </p>
        <DatePicker
          buttons={store.dateButtons}
          calendar={store.calendar}
          selectedDate={store.selectedDate}
          currency={currency}
          onSelect={(date) => void store.selectDate(date)}
        />
        <section className="reserve-section session-section" aria-labelledby={timesId}>
          <h3 id={timesId} className="reserve-section__title">
            {t('sessions.legend')}
          </h3>
          {store.sessionsLoading ? (
            <p role="status">{t('sessions.loading')}</p>
          ) : store.sessions.length === 0 ? (
            <p>{t('sessions.none')}</p>
          ) : (
            <SessionPicker
              sessions={store.sessions}
              tabsConfig={null}
              timezone={timezone}
              selectedId={store.selectedSessionId}
              remainingThreshold={10}
              onSelect={store.selectSession}
              unavailableReason={(s) => (s.id === sessionId ? t('reschedule.currentTime') : null)}
            />
          )}
        </section>
        {chosen && store.costIncrease > 0 && (
          <p className="notice--warning" role="status">
            {t('reschedule.costIncrease', { amount: formatMoney(store.costIncrease, currency) })}
          </p>
        )}
        {store.message && (
          <p className="notice--error" role="alert">
            {t(store.message.key, store.message.values)}
          </p>
        )}
        <p className="manage-actions">
          <button type="submit" className="button" disabled={!chosen || store.submitting} aria-busy={store.submitting || undefined}>
            {store.submitting ? t('reschedule.submitting') : t('reschedule.submit')}
          </button>
        </p>
      </form>
    );
  }
  return (
    <div className="container page recovery-page reschedule-page">
      <ScreenContent screen="manage">
        <h1 className="page-title">{t('reschedule.title')}</h1>
        <div className="recovery-card">
          {body}
          {back}
        </div>
      </ScreenContent>
    </div>
  );
});

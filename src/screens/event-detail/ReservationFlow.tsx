import { useDeferredValue, useId, useRef, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import type { ReservationStore } from '../../stores/ReservationStore';
import { DatePicker } from '../../components/DatePicker';
import { AdmissionChoice } from './AdmissionChoice';
import { SessionSection } from './SessionSection';
import { QuantitySection } from './QuantitySection';
import { SurveySection, type SurveyForms } from './SurveySection';
import { AdmitDetailsSection } from './AdmitDetailsSection';
import { CitypassSection } from './CitypassSection';
import { SubmitSection } from './SubmitSection';
import { SeatSection } from './SeatSection';
import { LoadFailed } from '../../components/LoadFailed';
import { ScreenSections } from '../../components/ScreenSections';
import type { SectionName } from '../../domain/layout';
import { useUpsells } from '../../stores/UpsellStore';
import { VisitNotices } from './UpsellBanner';

/** Quantity-first, once the quantities are chosen: what was chosen, and 'Change tickets' (date and time go). */
const SelectionSummary = observer(function SelectionSummary({ store }: { store: ReservationStore }) {
  const { t } = useTranslation();
  const chosen = store.shownGroups
    .flatMap(({ types }) => types)
    .filter((type) => store.count(type.id) > 0)
    .map((type) => t('reserve.quantityFirst.line', { count: store.count(type.id), name: type.name }));
  return (
    <div className="reserve-section reserve__selection">
      <p>{t('reserve.quantityFirst.chosen', { tickets: chosen.join(', ') })}</p>
      <button type="button" className="button button--secondary" onClick={() => store.editQuantities()}>
        {t('reserve.quantityFirst.change')}
      </button>
    </div>
  );
});

/** Spec sections 2 and 6: a members-only event without a current membership: log in or join; renew after a past one. */
const MembersOnlyPrompt = observer(function MembersOnlyPrompt() {
  const { t } = useTranslation();
  const { session, ui } = useStores();
  if (session.isLoggedIn && session.hasMembership)
    return (
      <p className="notice notice--info">
        {t('membership.membersOnly.expired')} <Link to="/membership/renew">{t('membership.membersOnly.renew')}</Link>
      </p>
    );
  return (
    <div className="notice notice--info">
      <p>{t('membership.membersOnly.text')}</p>
      <p>
        {!session.isLoggedIn && (
          <>
            <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={() => ui.openModal('login')}>
              {t('membership.membersOnly.logIn')}
            </button>{' '}
          </>
        )}
        <Link to="/membership">{t('membership.membersOnly.join')}</Link>
      </p>
    </div>
  );
});

/**
 * The date-first reservation flow (spec section 2): loader; 'unavailable'; date picker or the choice between
 * single-date and flexible admission; sessions; few-tickets warning; quantities; survey; admit details; CityPASS codes; seats;
 * submit.
 */
export const ReservationFlow = observer(function ReservationFlow({ store }: { store: ReservationStore }) {
  const { t } = useTranslation();
  const { config } = useStores();
  const upsells = useUpsells();
  const navigate = useNavigate();
  const titleId = useId();
  const surveyForms = useRef<SurveyForms>(new Map());
  const currency = config.seller.currency;
  // The flow (dates, sessions, quantities: the screen's largest render) is drawn in a background render once the
  // store is ready, so the event's image and text above it paint first and the main thread stays responsive.
  const state = useDeferredValue(store.state, 'loading');

  const handleSubmit = async () => {
    // Every survey form shows its own errors; all of them must pass.
    const surveysValid = store.surveyGroups.every((g) => surveyForms.current.get(g.id)?.validateForm() ?? true);
    const sessionId = store.effectiveMode === 'date' ? store.selectedSessionId : null;
    // An anchor starts the upsell chain, an add-on of a running chain goes back to its offers; else checkout (issue 16).
    if ((await store.submit(surveysValid)) && store.event) navigate(upsells.nextAfterReserve(store.event, sessionId));
  };

  let body;
  if (state === 'loading') {
    body = (
      <p role="status" className="reserve__status">
        {t('reserve.loading')}
      </p>
    );
  } else if (store.membersOnlyLocked) {
    body = <MembersOnlyPrompt />;
  } else if (state === 'unavailable') {
    body = <p className="notice notice--info reserve__unavailable">{t('reserve.unavailable')}</p>;
  } else if (state === 'init-error') {
    body = <LoadFailed onRetry={() => void store.load()} />;
  } else {
    const mode = store.effectiveMode;
    // Quantity-first (spec section 4): the steppers, then 'Find available tickets'; the dates and times after.
    const quantityFirst = store.quantityFirst;
    const datesShown = mode === 'date' && (!quantityFirst || (!store.quantitiesOpen && !store.calendarLoading));
    const tail = !(quantityFirst && store.quantitiesOpen);
    // The flow's sections, in the order of the seller's 'reservation' layout (date-first) or of the quantity-first steps.
    const parts = {
      admission: () => store.offersBoth && <AdmissionChoice store={store} />,
      dates: () =>
        datesShown && (
          <DatePicker
            buttons={store.dateButtons}
            calendar={store.shownCalendar}
            selectedDate={store.selectedDate}
            currency={currency}
            onSelect={(date) => void store.selectDate(date)}
          />
        ),
      sessions: () => datesShown && <SessionSection store={store} />,
      'few-left': () =>
        store.showFewTicketsWarning && (
          <p className="notice notice--warning reserve__few-left" role="status">
            {t('reserve.fewTicketsLeft')}
          </p>
        ),
      messages: () =>
        store.messages.length > 0 && (
          <ul className="reserve__messages" aria-live="polite">
            {store.messages.map((text) => (
              <li key={text} className="notice notice--info">
                {text}
              </li>
            ))}
          </ul>
        ),
      quantities: () => !quantityFirst && <QuantitySection store={store} currency={currency} />,
      survey: () => tail && <SurveySection store={store} forms={surveyForms.current} />,
      admit: () => tail && <AdmitDetailsSection store={store} />,
      citypass: () => tail && <CitypassSection store={store} />,
      seats: () => tail && <SeatSection store={store} currency={currency} />,
      submit: () => tail && <SubmitSection store={store} currency={currency} onSubmit={() => void handleSubmit()} />,
    } satisfies Record<SectionName<'reservation'>, () => ReactNode>;
    body = quantityFirst ? (
      <>
        <VisitNotices store={store} />
        {parts.admission()}
        {store.quantitiesOpen && (
          <>
            <QuantitySection store={store} currency={currency} />
            {store.notice && (
              <p className={`notice notice--${store.notice.tone}`} role="alert">
                {t(store.notice.key, store.notice.params)}
              </p>
            )}
            <p>
              <button type="button" className="button" onClick={() => void store.findTickets()}>
                {t('reserve.quantityFirst.find')}
              </button>
            </p>
          </>
        )}
        {!store.quantitiesOpen && <SelectionSummary store={store} />}
        {store.calendarLoading && (
          <p role="status" className="reserve__status">
            {t('reserve.loading')}
          </p>
        )}
        {parts.dates()}
        {parts.sessions()}
        {parts['few-left']()}
        {parts.messages()}
        {parts.survey()}
        {parts.admit()}
        {parts.citypass()}
        {parts.seats()}
        {parts.submit()}
      </>
    ) : (
      <>
        <VisitNotices store={store} />
        <ScreenSections screen="reservation" sections={parts} />
      </>
    );
  }

  return (
    <section className="reserve" aria-labelledby={titleId} aria-busy={state === 'loading' || undefined}>
      <h2 id={titleId} className="reserve__title">
        {t('reserve.sectionTitle')}
      </h2>
      {body}
    </section>
  );
});

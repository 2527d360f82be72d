import { useDeferredValue, useId, useRef } from 'react';
import { observer } from 'mobx-react-lite';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import type { ReservationStore } from '../../stores/ReservationStore';
import { DatePicker } from '../../components/DatePicker';
import { AdmissionChoice } from './AdmissionChoice';
import { SessionSection } from './SessionSection';
import { QuantitySection } from './QuantitySection';
import { SurveySection, type SurveyForms } from './SurveySection';
import { AdmitDetailsSection } from './AdmitDetailsSection';
import { SubmitSection } from './SubmitSection';

/**
 * The date-first reservation flow (spec section 2): loader; 'unavailable'; date picker or the choice between
 * single-date and flexible admission; sessions; few-tickets warning; quantities; survey; admit details; submit.
 */
export const ReservationFlow = observer(function ReservationFlow({ store }: { store: ReservationStore }) {
  const { t } = useTranslation();
  const { config } = useStores();
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
    if (await store.submit(surveysValid)) navigate('/checkout');
  };

  let body;
  if (state === 'loading') {
    body = <p role="status" className="reserve__status">{t('reserve.loading')}</p>;
  } else if (state === 'unavailable') {
    body = <p className="notice notice--info reserve__unavailable">{t('reserve.unavailable')}</p>;
  } else if (state === 'init-error') {
    body = (
      <div>
        <p role="alert" className="notice notice--error">{t('reserve.initError')}</p>
        <button type="button" className="button" onClick={() => void store.load()}>{t('reserve.retry')}</button>
      </div>
    );
  } else {
    const mode = store.effectiveMode;
    body = (
      <>
        {store.offersBoth && <AdmissionChoice store={store} />}
        {mode === 'date' && (
          <DatePicker buttons={store.dateButtons} calendar={store.calendar} selectedDate={store.selectedDate}
            currency={currency} onSelect={(date) => void store.selectDate(date)} />
        )}
        {mode === 'date' && <SessionSection store={store} />}
        {store.showFewTicketsWarning && (
          <p className="notice notice--warning reserve__few-left" role="status">{t('reserve.fewTicketsLeft')}</p>
        )}
        {store.messages.length > 0 && (
          <ul className="reserve__messages" aria-live="polite">
            {store.messages.map((text) => <li key={text} className="notice notice--info">{text}</li>)}
          </ul>
        )}
        <QuantitySection store={store} currency={currency} />
        <SurveySection store={store} forms={surveyForms.current} />
        <AdmitDetailsSection store={store} />
        <SubmitSection store={store} onSubmit={() => void handleSubmit()} />
      </>
    );
  }

  return (
    <section className="reserve" aria-labelledby={titleId} aria-busy={state === 'loading' || undefined}>
      <h2 id={titleId} className="reserve__title">{t('reserve.sectionTitle')}</h2>
      {body}
    </section>
  );
});

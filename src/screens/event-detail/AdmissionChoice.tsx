import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { AdmissionMode, ReservationStore } from '../../stores/ReservationStore';

/** The choice between single-date and flexible (any-date) admission, when the event offers both. */
export const AdmissionChoice = observer(function AdmissionChoice({ store }: { store: ReservationStore }) {
  const { t } = useTranslation();
  const options: Array<{ mode: AdmissionMode; label: string; hint: string }> = [
    { mode: 'date', label: t('reserve.admission.singleDate'), hint: t('reserve.admission.singleDateHint') },
    { mode: 'flexible', label: t('reserve.admission.flexible'), hint: t('reserve.admission.flexibleHint') },
  ];
  return (
    <fieldset className="reserve-section admission-choice">
      <legend className="reserve-section__title">{t('reserve.admission.legend')}</legend>
      <div className="admission-choice__options">
        {options.map((o) => (
          <label key={o.mode} className={`admission-option${store.mode === o.mode ? ' admission-option--selected' : ''}`}>
            <input
              type="radio"
              name="admission-mode"
              value={o.mode}
              checked={store.mode === o.mode}
              onChange={() => store.chooseMode(o.mode)}
            />
            <span className="admission-option__text">
              <span className="admission-option__label">{o.label}</span>
              <span className="admission-option__hint">{o.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
});

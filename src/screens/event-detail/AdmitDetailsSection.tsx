import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ReservationStore } from '../../stores/ReservationStore';
import { admitErrors, type AdmitSlot } from '../../domain/admit';

const AdmitFields = observer(function AdmitFields({
  store,
  slot,
  typeName,
}: {
  store: ReservationStore;
  slot: AdmitSlot;
  typeName: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const value = store.admitValues.get(slot.key) ?? {};
  const errors = store.attempted ? admitErrors(slot, value) : {};
  const field = (kind: 'name' | 'email', label: string, required: boolean, type: string, autoComplete: string) => {
    const error = errors[kind];
    return (
      <div className={`field${error ? ' field--invalid' : ''}`}>
        <label htmlFor={`${id}-${kind}`}>
          {label}
          {!required && <span className="field__optional"> {t('admit.optional')}</span>}
        </label>
        <input
          id={`${id}-${kind}`}
          type={type}
          autoComplete={autoComplete}
          maxLength={kind === 'name' ? 101 : 254}
          value={value[kind] ?? ''}
          required={required}
          aria-invalid={!!error || undefined}
          aria-describedby={error ? `${id}-${kind}-error` : undefined}
          onChange={(e) => store.setAdmit(slot.key, kind, e.target.value)}
        />
        {error && (
          <span id={`${id}-${kind}-error`} className="field__error">
            {t(`admit.errors.${error}`)}
          </span>
        )}
      </div>
    );
  };
  return (
    <fieldset className="admit-ticket">
      <legend className="admit-ticket__legend">{t('admit.ticketHeading', { name: typeName, number: slot.index + 1 })}</legend>
      {field('name', t('admit.fullName'), slot.nameRequired, 'text', 'off')}
      {slot.showEmail && field('email', t('admit.email'), slot.emailRequired, 'email', 'off')}
    </fieldset>
  );
});

/** 'Full Name' and, when emails are on, 'Email Address' per ticket (spec section 5, admit details). */
export const AdmitDetailsSection = observer(function AdmitDetailsSection({ store }: { store: ReservationStore }) {
  const { t } = useTranslation();
  const titleId = useId();
  const entries = store.admitSlots;
  if (entries.length === 0) return null;
  return (
    <section className="reserve-section admit-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="reserve-section__title">
        {t('admit.legend')}
      </h3>
      <div className="admit-grid">
        {entries.flatMap(({ type, slots }) =>
          slots.map((slot) => <AdmitFields key={slot.key} store={store} slot={slot} typeName={type.name} />),
        )}
      </div>
    </section>
  );
});

import { useId } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { ReservationStore } from '../../stores/ReservationStore';
import { CITYPASS_CODE_MAX, type CitypassKind } from '../../domain/citypass';

const CodeField = observer(function CodeField({
  store,
  codeKey,
  kind,
  typeName,
  number,
  hintId,
}: {
  store: ReservationStore;
  codeKey: string;
  kind: CitypassKind;
  typeName: string;
  number: number;
  hintId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const tickets = store.tickets;
  const problem = store.attempted ? tickets.citypassProblem(codeKey, kind) : null;
  return (
    <div className={`field${problem ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{t('admit.ticketHeading', { name: typeName, number })}</label>
      <input
        id={id}
        type="text"
        inputMode="text"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={CITYPASS_CODE_MAX}
        required
        value={tickets.citypassValues.get(codeKey) ?? ''}
        aria-invalid={!!problem || undefined}
        aria-describedby={problem ? `${id}-error ${hintId}` : hintId}
        onChange={(e) => tickets.setCitypass(codeKey, e.target.value)}
      />
      {problem && (
        <span id={`${id}-error`} className="field__error">
          {t(`citypass.errors.${problem}`)}
        </span>
      )}
    </div>
  );
});

/** A CityPASS code per chosen CityPASS ticket (spec section 8), checked against the event's adult or child form. */
export const CitypassSection = observer(function CitypassSection({ store }: { store: ReservationStore }) {
  const { t } = useTranslation();
  const titleId = useId();
  const hintId = useId();
  const entries = store.tickets.citypassSlots;
  if (entries.length === 0) return null;
  return (
    <section className="reserve-section citypass-section" aria-labelledby={titleId}>
      <h3 id={titleId} className="reserve-section__title">
        {t('citypass.legend')}
      </h3>
      <p id={hintId} className="reserve-section__hint">
        {t('citypass.hint')}
      </p>
      <div className="admit-grid">
        {entries.flatMap(({ type, kind, keys }) =>
          keys.map((key, i) => (
            <CodeField key={key} store={store} codeKey={key} kind={kind} typeName={type.name} number={i + 1} hintId={hintId} />
          )),
        )}
      </div>
    </section>
  );
});

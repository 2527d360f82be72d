import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardErrors, CardField, CardForm } from '../../domain/checkout-rules';

interface Props {
  value: CardForm;
  errors: CardErrors;
  disabled: boolean;
  onChange: (next: CardForm) => void;
  /** the checkout's form: Enter in a card field pays, wherever the layout puts the card section */
  formId?: string;
}

const FIELDS: Array<{
  field: CardField;
  label: string;
  autoComplete: string;
  inputMode: 'numeric';
  placeholder?: string;
  maxLength: number;
}> = [
  { field: 'number', label: 'payment.cardNumber', autoComplete: 'cc-number', inputMode: 'numeric', maxLength: 23 },
  { field: 'expiry', label: 'payment.expiry', autoComplete: 'cc-exp', inputMode: 'numeric', placeholder: 'MM/YY', maxLength: 7 },
  { field: 'cvc', label: 'payment.cvc', autoComplete: 'cc-csc', inputMode: 'numeric', maxLength: 4 },
];

/** Card entry for the `test` gateway, marked as test mode: nothing here reaches a real card provider. */
export function CardFields({ value, errors, disabled, onChange, formId }: Props) {
  const { t } = useTranslation();
  const baseId = useId();
  const hintId = `${baseId}-hint`;
  return (
    <fieldset className="card-form" aria-describedby={hintId}>
      <legend className="card-form__legend">
        {t('payment.cardTitle')} <span className="badge badge--test">{t('payment.testMode')}</span>
      </legend>
      <p id={hintId} className="card-form__hint">
        {t('payment.testHint')}
      </p>
      <div className="card-form__grid">
        {FIELDS.map(({ field, label, autoComplete, inputMode, placeholder, maxLength }) => {
          const id = `${baseId}-${field}`;
          const error = errors[field];
          return (
            <div key={field} className={`form-field card-form__${field}${error ? ' form-field--invalid' : ''}`}>
              <label htmlFor={id} className="form-field__label">
                {t(label)}
                <span className="form-field__required" aria-hidden="true">
                  {' '}
                  *
                </span>
              </label>
              <input
                id={id}
                name={field}
                form={formId}
                className="form-control"
                type="text"
                inputMode={inputMode}
                autoComplete={autoComplete}
                placeholder={placeholder}
                maxLength={maxLength}
                required
                aria-required="true"
                disabled={disabled}
                value={value[field]}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                onChange={(e) => onChange({ ...value, [field]: e.target.value })}
              />
              {error && (
                <p id={`${id}-error`} className="form-field__error">
                  {t(`payment.errors.${field}.${error}`)}
                </p>
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

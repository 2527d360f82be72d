import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  /** the ticket type's name */
  name: string;
  value: string;
  /** bounds as wire decimals ('5.00') and already formatted for display */
  min: string;
  max: string;
  minLabel: string;
  maxLabel: string;
  /** show 'Value entered is outside min/max' */
  invalid: boolean;
  onChange: (value: string) => void;
}

/** The amount of a flexible-price ticket type (spec section 5: number, step 0.01, within min and max). */
export function FlexiblePriceInput({ name, value, min, max, minLabel, maxLabel, invalid, onChange }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className={`field flexible-price${invalid ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{t('quantity.flexiblePrice', { name })}</label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        step="0.01"
        min={min}
        max={max}
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-range${invalid ? ` ${id}-error` : ''}`}
        onChange={(e) => onChange(e.target.value)}
      />
      <span id={`${id}-range`} className="field__hint">
        {t('quantity.flexibleRange', { min: minLabel, max: maxLabel })}
      </span>
      {invalid && (
        <span id={`${id}-error`} className="field__error" role="alert">
          {t('quantity.outsideMinMax')}
        </span>
      )}
    </div>
  );
}

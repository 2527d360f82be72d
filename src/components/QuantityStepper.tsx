import { useTranslation } from 'react-i18next';

interface Props {
  /** the ticket type's name, for the buttons' accessible names */
  name: string;
  count: number;
  canIncrement: boolean;
  canDecrement: boolean;
  onIncrement: () => void;
  onDecrement: () => void;
}

/** '-' count '+' for one ticket type; the rules deciding what the buttons do live in domain/quantity. */
export function QuantityStepper({ name, count, canIncrement, canDecrement, onIncrement, onDecrement }: Props) {
  const { t } = useTranslation();
  return (
    <div className="stepper">
      <button
        type="button"
        className="stepper__button"
        aria-label={t('quantity.remove', { name })}
        disabled={!canDecrement}
        onClick={onDecrement}
      >
        <span aria-hidden="true">−</span>
      </button>
      <output className="stepper__count" aria-live="polite" aria-label={t('quantity.count', { name, count })}>
        {count}
      </output>
      <button
        type="button"
        className="stepper__button"
        aria-label={t('quantity.add', { name })}
        disabled={!canIncrement}
        onClick={onIncrement}
      >
        <span aria-hidden="true">+</span>
      </button>
    </div>
  );
}

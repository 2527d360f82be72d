import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { SavedPaymentMethodRow } from '../../contract/saved-payment';

export const NEW_CARD = 'new';

/** How a saved card is named to the shopper: brand and last 4 (never more of the number). */
export function useCardLabel() {
  const { t } = useTranslation();
  return (m: Pick<SavedPaymentMethodRow, 'brand' | 'last4'>) =>
    t('savedCards.card', { brand: t(`savedCards.brands.${m.brand}`, { defaultValue: m.brand }), last4: m.last4 });
}

/**
 * The logged-in shopper's saved cards, offered first at checkout (issue 22), and 'Use a new card': native radios in a
 * fieldset, so the arrow keys move between them and a screen reader names the group.
 */
export function SavedCardChoice({
  cards,
  value,
  disabled,
  onChange,
}: {
  cards: SavedPaymentMethodRow[];
  value: string;
  disabled: boolean;
  onChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  const label = useCardLabel();
  const option = (id: string, text: string, hint?: string) => (
    <label key={id} className="saved-cards__option">
      <input type="radio" name={name} value={id} checked={value === id} disabled={disabled} onChange={() => onChange(id)} />
      <span className="saved-cards__text">
        {text}
        {hint && <span className="saved-cards__hint">{hint}</span>}
      </span>
    </label>
  );
  return (
    <fieldset className="saved-cards">
      <legend className="card-form__legend">{t('savedCards.legend')}</legend>
      {cards.map((m) => option(m.id, label(m), t('savedCards.expires', { month: String(m.exp_month).padStart(2, '0'), year: m.exp_year })))}
      {option(NEW_CARD, t('savedCards.newCard'))}
    </fieldset>
  );
}

/** 'Save this card for next time': only offered to a logged-in shopper typing a new card. */
export function SaveCardField({ checked, disabled, onChange }: { checked: boolean; disabled: boolean; onChange: (v: boolean) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const hint = `${id}-hint`;
  return (
    <div className="form-field terms saved-cards__save">
      <div className="terms__row">
        <input
          id={id}
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-describedby={hint}
          onChange={(e) => onChange(e.target.checked)}
        />
        <label htmlFor={id}>{t('savedCards.save')}</label>
      </div>
      <p id={hint} className="card-form__hint">
        {t('savedCards.saveHint')}
      </p>
    </div>
  );
}

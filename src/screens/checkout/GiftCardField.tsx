import { useId, useRef, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useRootStore } from '../../stores/lifecycle';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { GIFT_CARD_MAX } from '../../domain/gift-card';
import { GiftCardStore } from '../../stores/GiftCardStore';
import { CodeForm } from '../../components/CodeForm';
import '../../styles/promo.css';

/** One gift card store per root store: the checkout form and the checkout's payment share it. */
export function useGiftCardStore(): GiftCardStore {
  return useRootStore('giftCards', (root) => new GiftCardStore({ api: root.api, cart: root.cart }));
}

/**
 * The gift card field of the payment section (spec sections 2, 3, 5, 8; issue 13): a labelled number field with
 * Apply, the refusal under it (tied with aria-describedby, focus kept on the field), the cards with what each pays and
 * what it will hold, the cards already charged, what is left for the card, and a polite live region for changes.
 */
export const GiftCardField = observer(function GiftCardField({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation();
  const { config } = useStores();
  const gift = useGiftCardStore();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const money = (minor: number) => formatMoney(minor, config.seller.currency);
  const { payments, rest } = gift.plan;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await gift.apply();
    input.current?.focus();
  };

  return (
    <section className="promo gift-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="gift-card__title">
        {t('giftCard.title')}
      </h3>
      {(gift.charged.length > 0 || gift.pending.length > 0) && (
        <ul className="promo__applied" aria-label={t('giftCard.appliedList')}>
          {gift.charged.map((c) => (
            <li key={c.payment_id} className="promo__code">
              <span className="promo__code-text">
                <strong>{t('giftCard.number', { number: c.card_number })}</strong>{' '}
                <span className="promo__saving">{t('giftCard.paid', { amount: money(decimalToMinor(c.payment_amount)) })}</span>{' '}
                <span className="promo__name">{t('giftCard.remaining', { amount: money(decimalToMinor(c.remaining_balance)) })}</span>
              </span>
            </li>
          ))}
          {gift.pending.map((c, i) => (
            <li key={c.number} className="promo__code">
              <span className="promo__code-text">
                <strong>{t('giftCard.number', { number: c.number })}</strong>{' '}
                <span className="promo__saving">{t('giftCard.payment', { amount: money(payments[i] ?? 0) })}</span>{' '}
                <span className="promo__name">{t('giftCard.remaining', { amount: money(c.balance - (payments[i] ?? 0)) })}</span>
              </span>
              <button
                type="button"
                className="link-button promo__remove"
                disabled={disabled || gift.busy}
                aria-label={t('giftCard.removeCard', { number: c.number })}
                onClick={() => {
                  gift.remove(c.number);
                  input.current?.focus();
                }}
              >
                {t('giftCard.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {gift.pending.length > 0 && (
        <p className="gift-card__rest">{gift.coversOrder ? t('giftCard.coversOrder') : t('giftCard.rest', { amount: money(rest) })}</p>
      )}
      <CodeForm
        id={id}
        name="gift_card_number"
        label={t('giftCard.label')}
        hint={t('giftCard.intro')}
        value={gift.input}
        error={gift.error ? t(gift.error.key, gift.error.values) : null}
        busy={gift.busy}
        disabled={disabled}
        maxLength={GIFT_CARD_MAX + 20}
        applyLabel={t('giftCard.apply')}
        busyLabel={t('giftCard.applying')}
        inputRef={input}
        onChange={gift.setInput}
        onSubmit={(e) => void submit(e)}
      />
      <p className="visually-hidden" role="status" aria-live="polite">
        {gift.status ? t(gift.status.key, gift.status.values) : ''}
      </p>
    </section>
  );
});

import { useId, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { DonationStore } from '../../stores/DonationStore';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { donationPresets, parseDonation } from '../../domain/donation';

/**
 * The checkout's donation upsell (spec section 2): the seller's donation group (config `checkout_donation_tg_id`)
 * offered as a few amounts within its range and an amount of the shopper's own; added to the cart as a ticket of
 * the group's flexible-price type (the server checks the range). Once the cart holds a donation it says thank you
 * (the summary's remove button takes it out). No group configured, or none on sale: nothing shows.
 */
export const DonationSection = observer(function DonationSection() {
  const { t } = useTranslation();
  const { config, cart, api } = useStores();
  const groupId = typeof config.storefront.checkout_donation_tg_id === 'string' ? config.storefront.checkout_donation_tg_id : null;
  const currency = config.seller.currency;
  const store = useScreenStore(() => new DonationStore({ api, cart, groupId }), [api, cart, groupId]);
  const type = store.type;
  const [choice, setChoice] = useState<string>('');
  const [other, setOther] = useState('');
  const [error, setError] = useState<string | null>(null);
  const busy = store.busy;
  const id = useId();

  if (!groupId || !type) return null;
  const money = (minor: number) => formatMoney(minor, currency);
  const donated = cart.items.flatMap((item) => item.types).filter((ty) => ty.ticket_group_id === groupId);
  if (donated.length > 0) {
    const total = donated.reduce((sum, ty) => sum + decimalToMinor(ty.totalPrice), 0);
    return (
      <section className="donation" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} className="checkout-page__section-title">
          {t('checkout.donation.title')}
        </h2>
        <p className="donation__thanks" role="status">
          {t('checkout.donation.added', { amount: money(total) })}
        </p>
      </section>
    );
  }

  const presets = donationPresets(type);
  const add = async () => {
    const outcome = await store.add(choice === 'other' ? parseDonation(other) : Number(choice));
    if (outcome === 'added') {
      setError(null);
      setChoice('');
      setOther('');
    } else {
      setError(
        outcome === 'out_of_range'
          ? t('checkout.donation.range', { min: money(type.min), max: money(type.max) })
          : t('checkout.donation.failed'),
      );
    }
  };

  return (
    <section className="donation" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="checkout-page__section-title">
        {t('checkout.donation.title')}
      </h2>
      <fieldset className="donation__amounts" aria-describedby={error ? `${id}-error` : undefined} disabled={busy}>
        <legend className="donation__legend">{t('checkout.donation.intro')}</legend>
        <div className="donation__choices">
          {presets.map((minor) => (
            <label key={minor} className="donation__choice">
              <input
                type="radio"
                name={`${id}-amount`}
                value={String(minor)}
                checked={choice === String(minor)}
                onChange={(e) => setChoice(e.target.value)}
              />
              <span>{money(minor)}</span>
            </label>
          ))}
          <label className="donation__choice">
            <input type="radio" name={`${id}-amount`} value="other" checked={choice === 'other'} onChange={() => setChoice('other')} />
            <span>{t('checkout.donation.other')}</span>
          </label>
        </div>
        {choice === 'other' && (
          <div className="form-field donation__other">
            <label htmlFor={`${id}-other`} className="form-field__label">
              {t('checkout.donation.otherLabel', { min: money(type.min), max: money(type.max) })}
            </label>
            <input
              id={`${id}-other`}
              className="form-control donation__other-input"
              inputMode="decimal"
              autoComplete="off"
              value={other}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setOther(e.target.value)}
              onKeyDown={(e) => {
                // Enter adds the donation here; it does not pay.
                if (e.key === 'Enter') {
                  e.preventDefault();
                  void add();
                }
              }}
            />
          </div>
        )}
        {error && (
          <p id={`${id}-error`} className="form-field__error" role="alert">
            {error}
          </p>
        )}
        <button
          type="button"
          className="button button--secondary donation__add"
          disabled={!choice || busy}
          aria-busy={busy || undefined}
          onClick={() => void add()}
        >
          {t('checkout.donation.add')}
        </button>
      </fieldset>
    </section>
  );
});

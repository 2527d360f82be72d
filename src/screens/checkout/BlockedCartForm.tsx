import { useId, useRef, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { usePromoStore } from './PromoCodeField';
import { promoMessageKey } from '../../domain/promo-messages';
import { BLOCKED_CODE_MIN, asksForAnotherCode, blockedCodeProblem } from '../../domain/blocked-cart';
import { CodeForm } from '../../components/CodeForm';

/**
 * The blocked-cart code form (spec sections 2, 5, 8; issue 13): a checkout rule holds the cart until a code is applied
 * (block reason code_required). Shown in place of the pay button while the cart's `blocking_rules` are there; the code
 * goes on the cart like a promo code (without asking it for a discount) and the cart's answer lifts the rule.
 */
export const BlockedCartForm = observer(function BlockedCartForm() {
  const { t } = useTranslation();
  const { cart } = useStores();
  const promo = usePromoStore();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [accepted, setAccepted] = useState<string | null>(null);
  const rule = cart.cart?.blocking_rules?.[0];
  if (!rule && !accepted) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const code = value.trim();
    const problem = blockedCodeProblem(value);
    if (problem) {
      setError(problem === 'required' ? t('blockedCart.errors.required') : t('blockedCart.errors.minLength', { limit: BLOCKED_CODE_MIN }));
      input.current?.focus();
      return;
    }
    if (!cart.cartId || busy) return;
    setBusy(true);
    setError(null);
    const refused = await promo.applyCheckoutCode(code);
    setBusy(false);
    if (refused === null) {
      setValue('');
      setAccepted(code);
      return;
    }
    const message = t(promoMessageKey(refused), { code });
    setError(asksForAnotherCode(refused) ? t('blockedCart.tryAnother', { message }) : message);
    input.current?.focus();
  };

  if (!rule) {
    return (
      <p className="blocked-cart__accepted" role="status">
        {t('blockedCart.accepted', { code: accepted })}
      </p>
    );
  }
  return (
    <section className="blocked-cart" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="checkout-page__section-title">
        {t('blockedCart.title')}
      </h2>
      <CodeForm
        id={id}
        name="checkout_code"
        label={t('blockedCart.label')}
        hint={t('blockedCart.intro', { name: rule.name })}
        value={value}
        error={error}
        busy={busy}
        maxLength={55}
        applyLabel={t('blockedCart.apply')}
        busyLabel={t('blockedCart.applying')}
        primary
        inputRef={input}
        onChange={(next) => {
          setValue(next);
          if (error) setError(null);
        }}
        onSubmit={(e) => void submit(e)}
      />
    </section>
  );
});

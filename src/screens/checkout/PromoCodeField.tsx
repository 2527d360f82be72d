import { useEffect, useId, useRef, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useRootStore } from '../../stores/lifecycle';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { PROMO_MAX, forgetPendingCodes, pendingCodes, rememberCodes } from '../../domain/promo';
import { PromoStore } from '../../stores/PromoStore';
import { CodeForm } from '../../components/CodeForm';
import '../../styles/promo.css';

/** One promo store per root store, with the checkout's code (never in the first page's bundle). */
export function usePromoStore(): PromoStore {
  return useRootStore('promo', (root) => new PromoStore({ api: root.api, cart: root.cart, isLoggedIn: () => root.session.isLoggedIn }));
}

/**
 * The promo code field at checkout (spec sections 2, 5, 8; `web.show_promo_codes_on_checkout`): a labelled field with
 * Apply, the refusal under it (tied to the field with aria-describedby, focus kept on the field), the applied codes
 * with what each takes off and a Remove button, and a polite live region saying what changed.
 */
export const PromoCodeField = observer(function PromoCodeField({ cartLoaded }: { cartLoaded: boolean }) {
  const { t } = useTranslation();
  const { config, cart } = useStores();
  const promo = usePromoStore();
  const cartId = cart.cartId;
  // Codes from a `code` URL parameter (this page's, or one seen earlier in the tab) go on the cart once it exists and
  // the checkout's own read of it has come back (an older answer arriving later would hide the codes).
  useEffect(() => {
    rememberCodes(window.location.search);
    const codes = pendingCodes();
    if (!cartId || !cartLoaded || codes.length === 0) return;
    forgetPendingCodes();
    void promo.applyPending(codes);
  }, [cartId, cartLoaded, promo]);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const money = (value: string) => formatMoney(decimalToMinor(value), config.seller.currency);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await promo.apply();
    if (!ok) input.current?.focus();
  };
  const remove = async (code: string) => {
    await promo.remove(code);
    input.current?.focus();
  };

  return (
    <section className="promo" aria-label={t('promo.title')}>
      {promo.applied.length > 0 && (
        <ul className="promo__applied" aria-label={t('promo.appliedList')}>
          {promo.applied.map((m) => (
            <li key={m.id} className="promo__code">
              <span className="promo__code-text">
                <strong>{m.code}</strong> <span className="promo__name">{m.name}</span>
                {decimalToMinor(m.discount) > 0 && (
                  <span className="promo__saving">{t('promo.savings', { amount: money(m.discount) })}</span>
                )}
              </span>
              <button
                type="button"
                className="link-button promo__remove"
                disabled={promo.busy}
                aria-label={t('promo.removeCode', { code: m.code })}
                onClick={() => void remove(m.code)}
              >
                {t('promo.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <CodeForm
        id={id}
        name="promo_code"
        label={t('promo.label')}
        value={promo.input}
        error={promo.error ? t(promo.error.key, promo.error.values) : null}
        busy={promo.busy}
        maxLength={PROMO_MAX + 20}
        applyLabel={t('promo.apply')}
        busyLabel={t('promo.applying')}
        inputRef={input}
        onChange={promo.setInput}
        onSubmit={(e) => void submit(e)}
      />
      <p className="visually-hidden" role="status" aria-live="polite">
        {promo.status ? t(promo.status.key, promo.status.values) : ''}
      </p>
    </section>
  );
});

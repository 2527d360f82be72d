import { useId, useRef, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useScreenStore } from '../../stores/lifecycle';
import { CartTransferStore } from '../../stores/CartTransferStore';
import { transferLinkPath } from '../../domain/cart-transfer';
import { withSellerPrefix } from '../../domain/paths';

/**
 * 'Continue on another device' (issue 17): makes a transfer link for the shopper's cart and shows it to copy. The
 * link opens /transfer-cart/{cartId} with its token, which hands the cart to the browser that opens it, once, within
 * an hour; this browser then gives the cart up.
 */
export const CartHandover = observer(function CartHandover() {
  const { t } = useTranslation();
  const { api, cart, config } = useStores();
  const store = useScreenStore(() => new CartTransferStore({ api, cart }), [api, cart]);
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const link = store.link && store.link.cartId === cart.cartId ? store.link : null;
  const url = link ? `${window.location.origin}${withSellerPrefix(transferLinkPath(link.cartId, link.token), config.sellerPrefix)}` : '';

  const handleMake = async () => {
    setCopied('idle');
    await store.makeLink();
    field.current?.select();
  };
  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('copied');
    } catch {
      field.current?.select();
      setCopied('failed');
    }
  };

  if (!cart.cartId || cart.isEmpty || cart.cart?.state !== 'pending') return null;
  return (
    <section className="cart-handover" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="cart-handover__title">
        {t('transferCart.handover.title')}
      </h3>
      <p className="cart-handover__intro">{t('transferCart.handover.intro')}</p>
      {link ? (
        <div className="cart-handover__link">
          <label htmlFor={`${id}-url`} className="form-field__label">
            {t('transferCart.handover.linkLabel')}
          </label>
          <input
            ref={field}
            id={`${id}-url`}
            className="form-control"
            type="text"
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="button button--secondary" onClick={() => void handleCopy()}>
            {t('transferCart.handover.copy')}
          </button>
        </div>
      ) : (
        <button type="button" className="button button--secondary" disabled={store.making} onClick={() => void handleMake()}>
          {store.making ? t('transferCart.handover.making') : t('transferCart.handover.make')}
        </button>
      )}
      <p className="cart-handover__status" role="status">
        {store.makeFailed
          ? t('transferCart.handover.failed')
          : copied === 'copied'
            ? t('transferCart.handover.copied')
            : copied === 'failed'
              ? t('transferCart.handover.copyFailed')
              : ''}
      </p>
    </section>
  );
});

import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';

/** The cart's contents; the desktop sidebar and the mobile cart dialog both show it. */
export const CartContents = observer(function CartContents() {
  const { t } = useTranslation();
  const { cart } = useStores();
  if (cart.isEmpty) return <p className="cart__empty">{t('cart.empty')}</p>;
  return (
    <ul className="cart__items">
      {cart.items.map((item) => (
        <li key={item.id} className="cart__item">
          <span>{item.name}</span>
          <span>{t('cart.itemCount', { count: item.ticketCount })}</span>
        </li>
      ))}
    </ul>
  );
});

/** Desktop sidebar cart (hidden on small screens, where the mobile footer takes its place). */
export function CartWidget() {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className="cart-widget" aria-labelledby={titleId}>
      <h2 id={titleId} className="cart-widget__title">{t('cart.title')}</h2>
      <CartContents />
    </section>
  );
}

/** The 80 px bar fixed to the bottom of small screens: cart summary and a button that opens the cart. */
export const MobileFooter = observer(function MobileFooter() {
  const { t } = useTranslation();
  const { cart, ui } = useStores();
  return (
    <div className="mobile-footer">
      <p className="mobile-footer__summary">
        {cart.isEmpty ? t('cart.empty') : t('cart.itemCount', { count: cart.ticketCount })}
      </p>
      <button type="button" className="button button--secondary" aria-haspopup="dialog"
        onClick={() => ui.openModal('mobile-cart')}>
        {t('cart.open')}
      </button>
    </div>
  );
});

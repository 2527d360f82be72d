import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import type { CartItem } from '../stores/CartStore';
import { decimalToMinor, formatMoney } from '../domain/pricing';
import { sessionLabel } from '../domain/dates';
import { seatPlace } from '../domain/seat-place';
import { ExpiryTimer } from './ExpiryTimer';

/** Spec section 9: cart images are 64x51, fetched at double size. */
const IMAGE = { width: 64, height: 51 };

const CartItemView = observer(function CartItemView({ item, canRemove }: { item: CartItem; canRemove: boolean }) {
  const { t } = useTranslation();
  const { cart, config } = useStores();
  const currency = config.seller.currency;
  const total = item.types.reduce((sum, type) => sum + decimalToMinor(type.totalPrice), 0);
  return (
    <li className="cart-item">
      <div className="cart-item__head">
        {item.image_url && <img className="cart-item__image" src={item.image_url} alt="" width={IMAGE.width} height={IMAGE.height} />}
        <div className="cart-item__title">
          <h3 className="cart-item__name">{item.name}</h3>
          {item.start_datetime && <p className="cart-item__when">{sessionLabel(item.start_datetime, config.timezone)}</p>}
        </div>
      </div>
      <ul className="cart-item__types">
        {item.types.map((type) => (
          <li key={type.ticket_type_id} className="cart-item__type">
            <span>{t('cart.typeLine', { count: type.ticketCount, name: type.ticket_type_name })}</span>
            <span>{formatMoney(decimalToMinor(type.totalPrice), currency)}</span>
          </li>
        ))}
      </ul>
      {item.citypassCodes && item.citypassCodes.length > 0 && (
        <p className="cart-item__seats">{t('cart.citypassCodes', { codes: item.citypassCodes.join(', ') })}</p>
      )}
      {item.seats.length > 0 && (
        <p className="cart-item__seats">
          {t('cart.seats', { seats: item.seats.map((seat) => t('seats.label', seatPlace(seat))).join(', ') })}
        </p>
      )}
      <div className="cart-item__foot">
        <span className="cart-item__total">{t('cart.itemTotal', { total: formatMoney(total, currency) })}</span>
        {canRemove && (
          <button
            type="button"
            className="link-button"
            disabled={cart.busy}
            aria-label={t('cart.removeLabel', { name: item.name })}
            onClick={() => cart.requestRemove(item)}
          >
            {t('cart.remove')}
          </button>
        )}
      </div>
    </li>
  );
});

interface ContentsProps {
  /** The checkout screen shows the cart without its own 'Checkout' button and total (it lists totals itself). */
  showCheckout?: boolean;
  onNavigate?: () => void;
}

/** The cart's contents: items grouped by event with types, counts and totals, remove, and 'Checkout'. */
export const CartContents = observer(function CartContents({ showCheckout = true, onNavigate }: ContentsProps) {
  const { t } = useTranslation();
  const { cart, config, ui } = useStores();
  if (cart.isEmpty) return <p className="cart__empty">{t('cart.empty')}</p>;
  const totals = cart.cart?.cart_fees.grand_totals;
  return (
    <>
      <ul className="cart__items">
        {cart.items.map((item) => (
          <CartItemView key={item.id} item={item} canRemove={cart.cart?.state === 'pending' && !cart.cart.edit_order_id} />
        ))}
      </ul>
      {totals && showCheckout && (
        <p className="cart__total">
          <span>{t('cart.total')}</span>
          <strong>{formatMoney(decimalToMinor(totals.total_outstanding), config.seller.currency)}</strong>
        </p>
      )}
      {cart.error && (
        <p className="notice--error" role="alert">
          {t('app.unexpectedError')}
        </p>
      )}
      {/* The promo codes dialog (spec sections 2 and 5): its field loads when opened; the checkout shows the field itself. */}
      {showCheckout && config.flags.promo_field && cart.cart?.state === 'pending' && (
        <button type="button" className="link-button cart__promo" aria-haspopup="dialog" onClick={() => ui.openModal('promo-codes')}>
          {t('promo.haveCode')}
        </button>
      )}
      {showCheckout && (
        <Link className="button cart__checkout" to="/checkout" onClick={onNavigate}>
          {t('cart.checkout')}
        </Link>
      )}
    </>
  );
});

/** Desktop sidebar cart (hidden on small screens, where the mobile footer takes its place). */
export function CartWidget({ showCheckout = true }: { showCheckout?: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className="cart-widget" aria-labelledby={titleId}>
      <h2 id={titleId} className="cart-widget__title">
        {t('cart.title')}
      </h2>
      <ExpiryTimer />
      <CartContents showCheckout={showCheckout} />
    </section>
  );
}

/**
 * The 80 px bar fixed to the bottom of small screens: cart summary, timer and a button that opens the cart. `skipTo`: the
 * buy-membership form's skip action (spec section 2), going on without a membership.
 */
export const MobileFooter = observer(function MobileFooter({ skipTo }: { skipTo?: string }) {
  const { t } = useTranslation();
  const { cart, ui } = useStores();
  return (
    <div className="mobile-footer">
      <div className="mobile-footer__summary">
        {/* Beside the skip action an empty cart says nothing: the two buttons need the room. */}
        {!(skipTo && cart.isEmpty) && <p>{cart.isEmpty ? t('cart.empty') : t('cart.ticketCount', { count: cart.ticketCount })}</p>}
        <ExpiryTimer compact />
      </div>
      <div className="mobile-footer__actions">
        {skipTo && (
          <Link className="button button--secondary" to={skipTo} aria-label={t('membership.form.skipLabel')}>
            {t('membership.form.skip')}
          </Link>
        )}
        <button type="button" className="button button--secondary" aria-haspopup="dialog" onClick={() => ui.openModal('mobile-cart')}>
          {t('cart.open')}
        </button>
      </div>
    </div>
  );
});

/** The mobile cart dialog's body: timer and contents; following 'Checkout' closes the dialog. */
export const MobileCart = observer(function MobileCart() {
  const { ui } = useStores();
  return (
    <div className="mobile-cart">
      <ExpiryTimer />
      <CartContents onNavigate={ui.closeModal} />
    </div>
  );
});

import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { CartContents } from '../../components/CartWidget';
import { ExpiryTimer } from '../../components/ExpiryTimer';
import { decimalToMinor, formatMoney } from '../../domain/pricing';
import { PromoCodeField } from './PromoCodeField';
import { PaymentSchedule } from './PaymentSchedule';
import { CartHandover } from './CartHandover';

/** Order summary: the cart's items, then subtotal, fees, discounts, payments and the total due (spec section 9). */
export const CheckoutSummary = observer(function CheckoutSummary({ loaded = true }: { loaded?: boolean }) {
  const { t } = useTranslation();
  const { cart, config } = useStores();
  const titleId = useId();
  const totals = cart.cart?.cart_fees.grand_totals;
  const money = (value: string | undefined) => formatMoney(decimalToMinor(value), config.seller.currency);
  const fees = decimalToMinor(totals?.total_fee_fixed_outside) + decimalToMinor(totals?.total_fee_percent_outside);
  return (
    <section className="checkout-summary" aria-labelledby={titleId}>
      <h2 id={titleId} className="checkout-summary__title">
        {t('checkout.summaryTitle')}
      </h2>
      <ExpiryTimer />
      <CartContents showCheckout={false} />
      {/* An order's edit (issue 17) carries the prices the order paid: no codes on it. */}
      {config.flags.promo_field && !cart.cart?.edit_order_id && <PromoCodeField cartLoaded={loaded} />}
      {totals && (
        <dl className="checkout-totals">
          <div>
            <dt>{t('checkout.subtotal')}</dt>
            <dd>{money(totals.total_before_cartmod_price)}</dd>
          </div>
          {decimalToMinor(totals.total_cartmod_amount) > 0 && (
            <div>
              <dt>{t('checkout.discount')}</dt>
              <dd>−{money(totals.total_cartmod_amount)}</dd>
            </div>
          )}
          <div>
            <dt>{t('checkout.fees')}</dt>
            <dd>{formatMoney(fees, config.seller.currency)}</dd>
          </div>
          {decimalToMinor(totals.total_payments) > 0 && (
            <div>
              <dt>{t('checkout.paid')}</dt>
              <dd>−{money(totals.total_payments)}</dd>
            </div>
          )}
          <div className="checkout-totals__due">
            <dt>{t('checkout.totalDue')}</dt>
            <dd>{money(totals.total_outstanding)}</dd>
          </div>
        </dl>
      )}
      <PaymentSchedule />
      <CartHandover />
    </section>
  );
});

import { useEffect, useId } from 'react';
import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useUpsells } from '../../stores/UpsellStore';

/**
 * The checkout upsell (spec section 9, config checkout_upsell_id; issue 16): one more experience for the visit, with a
 * link to its page (an add-on there fits the visit in the cart and comes back to checkout). Not offered when the cart
 * holds it, or when it needs an admission the cart does not hold.
 */
export const CheckoutUpsell = observer(function CheckoutUpsell() {
  const { t } = useTranslation();
  const upsells = useUpsells();
  const id = useId();
  useEffect(() => {
    void upsells.loadCheckoutOffer();
  }, [upsells]);
  const event = upsells.checkoutOffer;
  if (!event) return null;
  return (
    <section className="checkout-upsell" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="checkout-page__section-title">
        {t('checkout.upsell.title')}
      </h2>
      <p>
        <strong>{event.name}</strong>
        {event.summary && <> {event.summary}</>}
      </p>
      <Link className="button button--secondary" to={`/events/${event.id}`}>
        {t('checkout.upsell.add', { name: event.name })}
      </Link>
    </section>
  );
});

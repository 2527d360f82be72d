import { useEffect, useState } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useUpsells } from '../../stores/UpsellStore';
import { ScreenSections } from '../../components/ScreenSections';
import { CartWidget, MobileFooter } from '../../components/CartWidget';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { EventListItem, EventsScreen } from './EventsScreen';

/** The page's title while the chain's listing shows (the ordinary listing gives its own). */
function UpsellTitle({ title }: { title: string }) {
  useDocumentTitle(title);
  return null;
}

/**
 * /events while an upsell chain runs (spec section 2, issue 16; the route draws it once an event page, where a chain
 * starts, has brought its code: UiStore.upsellListing): 'What other experiences would you like to add?', the visit, the
 * add-ons still offered, and a skip link; when the shopper skips them, or none remain, on to checkout. Without a
 * running chain, the ordinary listing.
 */
export const UpsellListing = observer(function UpsellListing() {
  const { t } = useTranslation();
  const { cart } = useStores();
  const upsells = useUpsells();
  const navigate = useNavigate();
  // A first page load reads the stored cart beside the page: whether the chain runs is known once it is read.
  const [cartRead, setCartRead] = useState(false);
  useEffect(() => {
    let live = true;
    void cart.settled.then(() => live && setCartRead(true));
    return () => {
      live = false;
    };
  }, [cart]);
  const active = cartRead && upsells.active;
  useEffect(() => {
    if (active) void upsells.loadOffers();
  }, [active, upsells]);
  const noneLeft = active && upsells.offersState === 'ready' && upsells.remaining.length === 0;
  useEffect(() => {
    if (!noneLeft) return;
    upsells.end();
    void navigate('/checkout', { replace: true });
  }, [noneLeft, upsells, navigate]);

  if (cartRead && !active) return <EventsScreen />;
  if (!active || noneLeft) return <p role="status">{t('events.loading')}</p>;

  const { offersState, remaining, visitLabel } = upsells;
  const status =
    offersState === 'ready' ? t('events.resultCount', { count: remaining.length }) : offersState === 'error' ? '' : t('events.loading');
  return (
    <div className="container events-page">
      <UpsellTitle title={t('events.upsellHeading')} />
      <div className="events-page__main">
        <ScreenSections
          screen="events"
          sections={{
            heading: () => <h1 className="page-title">{t('events.upsellHeading')}</h1>,
            'upsell-heading': () => (
              <div className="upsell-visit">
                {visitLabel && <p>{t(visitLabel.key, visitLabel.params)}</p>}
                <Link to="/checkout" onClick={upsells.end}>
                  {t('events.upsellSkipAll')}
                </Link>
              </div>
            ),
            filters: () => null,
            results: () => (
              <section className="event-results" aria-labelledby="upsell-results-count">
                <p id="upsell-results-count" className="event-results__count" role="status" aria-live="polite">
                  {status}
                </p>
                {offersState === 'error' && (
                  <div className="notice notice--error" role="alert">
                    <p>{t('events.upsellLoadError')}</p>
                    <button type="button" className="button" onClick={() => void upsells.loadOffers()}>
                      {t('events.retry')}
                    </button>
                  </div>
                )}
                {remaining.length > 0 && (
                  <ul className="event-list">
                    {remaining.map((event, index) => (
                      <EventListItem key={event.id} event={event} venue={upsells.venueOf(event)} eager={index < 3} />
                    ))}
                  </ul>
                )}
              </section>
            ),
          }}
        />
      </div>
      <div className="events-page__aside">
        <CartWidget />
      </div>
      <MobileFooter />
    </div>
  );
});

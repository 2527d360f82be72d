import { useEffect, useState, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useUpsells } from '../../stores/UpsellStore';
import type { EventTemplateRow, VenueRow } from '../../contract/catalogue';
import type { SectionName } from '../../domain/layout';

/** What the events screen lends the chain's listing (the page's frame and its list items), so this chunk stays small. */
export interface ListingParts {
  /** the ordinary listing, shown when no chain runs */
  listing: ReactNode;
  /** reads the ordinary listing, which the screen left unread because a chain had been started here */
  loadListing?: () => void;
  /** the page around the sections of the events layout (ScreenSections, the cart beside them) */
  page(sections: Record<SectionName<'events'>, () => ReactNode>): ReactNode;
  item(event: EventTemplateRow, venue: VenueRow | null, index: number): ReactNode;
}

/**
 * /events while an upsell chain runs (spec section 2, issue 16; a chunk of its own, loaded only once the cart holds an
 * anchor or a chain was started): 'What other experiences would you like to add?', the visit, the add-ons still
 * offered, and a skip link; when the shopper skips them, or none remain, on to checkout. Without a running chain the
 * ordinary listing shows.
 */
const UpsellListing = observer(function UpsellListing({ listing, loadListing, page, item }: ListingParts) {
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
    else if (cartRead) loadListing?.();
    // loadListing is the screen's for its filters; asked again only when the chain's state changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, cartRead, upsells]);
  const noneLeft = active && upsells.offersState === 'ready' && upsells.remaining.length === 0;
  useEffect(() => {
    if (!noneLeft) return;
    upsells.end();
    void navigate('/checkout', { replace: true });
  }, [noneLeft, upsells, navigate]);

  if (!cartRead || noneLeft) return <p role="status">{t('events.loading')}</p>;
  if (!active) return listing;

  const { offersState, remaining, visitLabel } = upsells;
  const status =
    offersState === 'ready' ? t('events.resultCount', { count: remaining.length }) : offersState === 'error' ? '' : t('events.loading');
  return page({
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
        {remaining.length > 0 && <ul className="event-list">{remaining.map((event, i) => item(event, upsells.venueOf(event), i))}</ul>}
      </section>
    ),
  });
});
export default UpsellListing;

import { lazy, Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { observer } from 'mobx-react-lite';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { eventFiltersToQuery, parseEventFilters, type EventFilters } from '../../domain/event-filters';
import { ScreenSections } from '../../components/ScreenSections';
import type { SectionName } from '../../domain/layout';
import { CartWidget, MobileFooter } from '../../components/CartWidget';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { EventFiltersForm } from './EventFiltersForm';
import { EventResults } from './EventResults';
import { EventListItem } from './EventListItem';

/** The listing of a running upsell chain (issue 16): a chunk of its own, so a first visit's page does not carry it. */
const UpsellListing = lazy(() => import('./UpsellListing'));

/** /events: 'Choose your events', filters from the query, the results, the cart sidebar and mobile footer. */
export const EventsScreen = observer(function EventsScreen() {
  const { t } = useTranslation();
  const root = useStores();
  const { config, events, cart } = root;
  // A member's list holds the members-only events too: it is read again once the session says who is here.
  const member = root.isActiveMember;
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const filters = useMemo(() => parseEventFilters(new URLSearchParams(search), config.filterOptions), [search, config.filterOptions]);
  const filterKey = eventFiltersToQuery(filters).toString();

  useDocumentTitle(t('events.title'));

  // A browser that started an upsell chain reads the listing only if the chain no longer runs (UpsellListing asks).
  const upsells = config.flags.upsells !== false;
  const chained = upsells && cart.hasStoredChain;
  const loadListing = () => void events.loadEvents(filters);
  useEffect(() => {
    if (!chained) loadListing();
    // filterKey is the identity of `filters`: reload only when the filters really change
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterKey, events, member]);

  const handleFiltersChange = (next: EventFilters) => {
    setSearchParams(eventFiltersToQuery(next), { replace: true, preventScrollReset: true });
  };

  const page = (sections: Record<SectionName<'events'>, () => ReactNode>) => (
    <div className="container events-page">
      <div className="events-page__main">
        <ScreenSections screen="events" sections={sections} />
      </div>
      <div className="events-page__aside">
        <CartWidget />
      </div>
      <MobileFooter />
    </div>
  );
  const listing = page({
    heading: () => <h1 className="page-title">{t('events.title')}</h1>,
    // Shown once the cart holds an anchor event: the listing then offers add-ons.
    'upsell-heading': () => (cart.hasAnchorItem && upsells ? <h2 className="upsell-heading">{t('events.upsellHeading')}</h2> : null),
    filters: () => <EventFiltersForm filters={filters} onChange={handleFiltersChange} />,
    results: () => <EventResults filters={filters} />,
  });
  // Once the cart holds an anchor (or this browser started a chain), the chain's code decides what the listing offers.
  return chained || (upsells && cart.hasAnchorItem) ? (
    <Suspense fallback={chained ? <p role="status">{t('events.loading')}</p> : listing}>
      <UpsellListing
        listing={listing}
        loadListing={chained ? loadListing : undefined}
        page={page}
        item={(event, venue, index) => <EventListItem key={event.id} event={event} venue={venue} eager={index < 3} />}
      />
    </Suspense>
  ) : (
    listing
  );
});

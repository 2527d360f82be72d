import { useEffect, useMemo } from 'react';
import { observer } from 'mobx-react-lite';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { eventFiltersToQuery, parseEventFilters, type EventFilters } from '../../domain/event-filters';
import { ScreenSections } from '../../components/ScreenSections';
import { CartWidget, MobileFooter } from '../../components/CartWidget';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { EventFiltersForm } from './EventFiltersForm';
import { EventResults } from './EventResults';

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

  useEffect(() => {
    void events.loadEvents(filters);
    // filterKey is the identity of `filters`: reload only when the filters really change
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterKey, events, member]);

  const handleFiltersChange = (next: EventFilters) => {
    setSearchParams(eventFiltersToQuery(next), { replace: true, preventScrollReset: true });
  };

  return (
    <div className="container events-page">
      <div className="events-page__main">
        <ScreenSections
          screen="events"
          sections={{
            heading: () => <h1 className="page-title">{t('events.title')}</h1>,
            // Shown once the cart holds an anchor event: the listing then offers add-ons.
            'upsell-heading': () =>
              cart.hasAnchorItem && config.flags.upsells !== false ? <h2 className="upsell-heading">{t('events.upsellHeading')}</h2> : null,
            filters: () => <EventFiltersForm filters={filters} onChange={handleFiltersChange} />,
            results: () => <EventResults filters={filters} />,
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

/** The chain's listing (UpsellListing, in the event page's code) draws its add-ons as this listing does. */
export { EventListItem } from './EventListItem';

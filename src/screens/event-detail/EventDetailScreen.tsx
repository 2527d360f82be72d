import { lazy, Suspense, useEffect } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { COVER, COVER_SIZES, coverImageId, coverSources } from '../../domain/page-images';
import { SafeHtml } from '../../components/ContentBlock';
import { ScreenSections } from '../../components/ScreenSections';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { CartWidget, MobileFooter } from '../../components/CartWidget';
import { useMoneyFormatWarmUp } from '../../components/useMoneyFormatWarmUp';
import { NotFoundScreen } from '../not-found/NotFoundScreen';
import { ReservationFlow } from './ReservationFlow';
import { useReservationStore } from './useReservationStore';
import { UpsellBanner } from './UpsellBanner';
import { UpsellListing } from '../events/UpsellListing';
import { rememberCodes } from '../../domain/promo';
import '../../styles/reserve.css';

/** The buy-membership form: its own chunk, fetched only on the membership event (issue 12). */
const MembershipForm = lazy(() => import('../membership/MembershipForm').then((m) => ({ default: m.MembershipForm })));

/** /events/:eventId(/:action): the event's image, name, subtitle and description, then the date-first
 *  reservation flow (its own store per visit), with the cart beside it (in the footer on small screens). */
export const EventDetailScreen = observer(function EventDetailScreen() {
  const { t } = useTranslation();
  const { eventId = '', action } = useParams();
  const { events, config, ui } = useStores();
  const reservation = useReservationStore(eventId);
  useMoneyFormatWarmUp(config.seller.currency);

  useEffect(() => {
    void events.loadEvent(eventId);
  }, [eventId, events]);
  // 'Add to cart' here may start an upsell chain: /events draws the chain's listing from now on (issue 16).
  useEffect(() => ui.setUpsellListing(UpsellListing), [ui]);
  // A `code` parameter (a promo link) waits in the tab until checkout puts it on the cart (spec section 7).
  useEffect(() => rememberCodes(window.location.search), []);

  const detail = events.detail?.event.id === eventId ? events.detail : null;
  useDocumentTitle(detail?.event.name ?? null);

  if (events.detailNotFound) return <NotFoundScreen />;
  if (events.detailState === 'error') {
    return (
      <div className="container page">
        <p role="alert">{t('app.unexpectedError')}</p>
        <button type="button" className="button" onClick={() => void events.loadEvent(eventId)}>
          {t('events.retry')}
        </button>
      </div>
    );
  }
  if (!detail)
    return (
      <div className="container page">
        <p role="status">{t('eventDetail.loading')}</p>
      </div>
    );

  const { event } = detail;
  // The membership event (spec section 2: its detail is the buy-membership form): the levels are its membership group's types.
  const membershipGroup = reservation.data?.groups.find((g) => g.handler === 'membership');
  const membershipTypes = membershipGroup ? reservation.data!.types.filter((ty) => ty.ticket_group_id === membershipGroup.id) : null;
  const api = config.deployment.apiBaseUrl;
  const imageId = coverImageId(event.meta);
  const alt = (event.meta?.image_cover_alt ?? event.meta?.image_profile_alt ?? '') as string;
  return (
    <div className="container event-detail-page">
      <article className="event-detail">
        <ScreenSections
          screen="event-detail"
          sections={{
            'back-link': () => (
              <p>
                <Link className="back-link" to="/events">
                  {t('eventDetail.back')}
                </Link>
              </p>
            ),
            // The cover is the page's largest paint: fetched first, decoded off the main thread.
            image: () =>
              imageId ? (
                <img
                  className="event-detail__image"
                  alt={alt}
                  width={COVER.width}
                  height={COVER.height}
                  fetchPriority="high"
                  decoding="async"
                  sizes={COVER_SIZES}
                  {...coverSources(api, imageId)}
                />
              ) : null,
            heading: () => (
              <>
                <header className="event-detail__header">
                  <h1 className="page-title">{event.name}</h1>
                  {event.subtitle && <p className="event-detail__subtitle">{event.subtitle}</p>}
                </header>
                <UpsellBanner event={event} />
              </>
            ),
            description: () => (event.description ? <SafeHtml className="event-detail__description" html={event.description} /> : null),
            reservation: () =>
              membershipTypes ? (
                <Suspense
                  fallback={
                    <p role="status" className="reserve__status">
                      {t('reserve.loading')}
                    </p>
                  }
                >
                  <MembershipForm eventId={eventId} action={action} types={membershipTypes} group={membershipGroup} />
                </Suspense>
              ) : reservation ? (
                <ReservationFlow store={reservation} />
              ) : (
                <p role="status" className="reserve__status">
                  {t('reserve.loading')}
                </p>
              ),
          }}
        />
      </article>
      <div className="event-detail-page__aside">
        <CartWidget />
      </div>
      {/* The buy-membership form's footer offers to skip it and go on to the events (spec section 2). */}
      <MobileFooter skipTo={membershipTypes ? '/events' : undefined} />
    </div>
  );
});

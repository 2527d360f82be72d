import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { imageUrl } from '../../contract/urls';
import type { EventTemplateRow, VenueRow } from '../../contract/catalogue';

/** Spec section 9: teaser 272x216, requested at double size for sharp screens. */
export const TEASER = { width: 272, height: 216 } as const;

/** Image, name, subtitle, summary, venue name (if the seller shows it) and a button to the event. */
interface Props {
  event: EventTemplateRow;
  venue: VenueRow | null;
  /** The first few teasers are above the fold: load them at once, the rest when scrolled near. */
  eager?: boolean;
}

export const EventListItem = observer(function EventListItem({ event, venue, eager = false }: Props) {
  const { t } = useTranslation();
  const { config } = useStores();
  const headingId = useId();
  const imageId = event.meta?.image_profile ?? event.meta?.image_cover ?? null;
  const alt = (event.meta?.image_profile_alt ?? event.meta?.image_cover_alt ?? '') as string;
  return (
    <li className="event-item">
      <article className="event-item__card" aria-labelledby={headingId}>
        <div className="event-item__media">
          {imageId && (
            <img
              src={imageUrl(config.deployment.apiBaseUrl, imageId, { width: TEASER.width * 2, height: TEASER.height * 2 })}
              width={TEASER.width}
              height={TEASER.height}
              alt={alt}
              loading={eager ? 'eager' : 'lazy'}
              decoding="async"
            />
          )}
        </div>
        <div className="event-item__body">
          <h2 id={headingId} className="event-item__name">
            {event.name}
          </h2>
          {event.subtitle && <p className="event-item__subtitle">{event.subtitle}</p>}
          {event.summary && <p className="event-item__summary">{event.summary}</p>}
          {config.showVenueName && venue && <p className="event-item__venue">{t('events.venue', { name: venue.name })}</p>}
          <Link
            className="button event-item__button"
            to={`/events/${event.id}`}
            aria-label={t('events.viewEventLabel', { name: event.name })}
          >
            {t('events.viewEvent')}
          </Link>
        </div>
      </article>
    </li>
  );
});

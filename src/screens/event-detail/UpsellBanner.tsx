import { useId, type MouseEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useUpsells } from '../../stores/UpsellStore';
import type { ReservationStore } from '../../stores/ReservationStore';
import type { EventTemplateRow } from '../../contract/catalogue';
import { upsellSettings } from '../../domain/upsell';

/**
 * The chained add-on banner (spec section 2): on the page of an add-on the upsell chain offers, which visit it is for,
 * and a skip link that takes it off the offer and goes back to the chain's listing.
 */
export const UpsellBanner = observer(function UpsellBanner({ event }: { event: EventTemplateRow }) {
  const { t } = useTranslation();
  const upsells = useUpsells();
  const navigate = useNavigate();
  const titleId = useId();
  const visit = upsells.visitLabel;
  if (!visit || !upsells.isOffer(event)) return null;
  const handleSkip = (e: MouseEvent) => {
    e.preventDefault();
    upsells.skip(event.id);
    void navigate('/events');
  };
  return (
    <aside className="upsell-banner" aria-labelledby={titleId}>
      <h2 id={titleId} className="upsell-banner__title">
        {t('reserve.upsell.bannerTitle')}
      </h2>
      <p>{t(visit.key, visit.params)}</p>
      <Link
        to="/events"
        className="upsell-banner__skip"
        onClick={handleSkip}
        aria-label={t('reserve.upsell.skipLabel', { name: event.name })}
      >
        {t('reserve.upsell.skip')}
      </Link>
    </aside>
  );
});

/** Above the flow: 'add an admission event first' for an add-on without its anchor, or how many tickets it must match. */
export const VisitNotices = observer(function VisitNotices({ store }: { store: ReservationStore }) {
  const { t } = useTranslation();
  const { config } = useStores();
  const { visit } = store;
  if (visit.missingAnchor) {
    const admission = upsellSettings(config.storefront).admissionEventId;
    return (
      <p className="notice notice--warning reserve__anchor-first">
        {t('reserve.upsell.anchorFirst')} {admission && <Link to={`/events/${admission}`}>{t('reserve.upsell.anchorFirstLink')}</Link>}
      </p>
    );
  }
  const start = store.effectiveMode === 'date' ? (store.selectedSession?.start_datetime ?? null) : null;
  const [anchor] = visit.matchFor(start);
  return anchor ? (
    <p className="notice notice--info reserve__must-match">{t('reserve.upsell.mustMatch', { count: anchor.count })}</p>
  ) : null;
});

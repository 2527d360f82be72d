import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ReservationStore } from '../../stores/ReservationStore';

/** Guard and reserve messages, 'Add to cart' and the back link. */
export const SubmitSection = observer(function SubmitSection({ store, onSubmit }: { store: ReservationStore; onSubmit: () => void }) {
  const { t } = useTranslation();
  const notice = store.notice;
  return (
    <div className="reserve-submit">
      <div aria-live="assertive" className="reserve-submit__message">
        {notice && (
          <p className={`notice notice--${notice.tone}`} role="alert">
            {t(notice.key, notice.params)}
          </p>
        )}
      </div>
      <div className="reserve-submit__actions">
        {/* Not disabled with no tickets: pressing it says why (the guard messages of spec section 5). */}
        <button
          type="button"
          className="button reserve-submit__button"
          onClick={onSubmit}
          disabled={store.submitting}
          aria-disabled={store.submitting || undefined}
        >
          {store.submitting ? t('reserve.submitting') : t('reserve.submit')}
        </button>
        <Link to="/events" className="back-link">
          {t('reserve.back')}
        </Link>
      </div>
    </div>
  );
});

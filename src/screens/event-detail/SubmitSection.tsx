import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ReservationStore } from '../../stores/ReservationStore';
import { formatMoney } from '../../domain/pricing';

/** Guard and reserve messages, 'Add to cart' and the back link. */
export const SubmitSection = observer(function SubmitSection({
  store,
  currency,
  onSubmit,
}: {
  store: ReservationStore;
  currency: string;
  onSubmit: () => void;
}) {
  const { t } = useTranslation();
  const notice = store.notice;
  const subtotal = store.subtotal;
  return (
    <div className="reserve-submit">
      {/* The running subtotal (issue 16): what 'Add to cart' puts in the cart, fees included. */}
      <div className="reserve-subtotal" aria-live="polite">
        {subtotal.lines.length > 0 && (
          <>
            <p className="reserve-subtotal__total">
              <span>{t('reserve.subtotal.label')}</span> <strong>{formatMoney(subtotal.total, currency)}</strong>
            </p>
            {subtotal.saving > 0 && (
              <p className="reserve-subtotal__saving">{t('reserve.subtotal.saving', { amount: formatMoney(subtotal.saving, currency) })}</p>
            )}
            {subtotal.fees > 0 && (
              <p className="reserve-subtotal__fees">{t('reserve.subtotal.fees', { amount: formatMoney(subtotal.fees, currency) })}</p>
            )}
          </>
        )}
      </div>
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

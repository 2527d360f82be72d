import { useTranslation } from 'react-i18next';

/** A form's first reads failed: the spec's unexpected-error text and 'Try again' (reservation and membership forms). */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div>
      <p role="alert" className="notice notice--error">
        {t('reserve.initError')}
      </p>
      <button type="button" className="button" onClick={onRetry}>
        {t('reserve.retry')}
      </button>
    </div>
  );
}

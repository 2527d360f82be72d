import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpClientError } from '../api/http';
import { ApiError } from '../api/errors';

/** An API failure that reached no screen's handler: an ApiError, or an axios error not yet turned into one. */
export const isUnhandledApiFailure = (reason: unknown): boolean => reason instanceof ApiError || isHttpClientError(reason);

/**
 * Spec section 8: unhandled API rejections show a reload banner. Every screen handles the failures it expects; this
 * is the net under them, so a call that failed where nobody listened does not leave the page silently stale. Drawn
 * with the shell (not a chunk of its own): a failing network may not deliver one.
 */
export function ReloadBanner() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const onRejection = (event: PromiseRejectionEvent) => {
      if (isUnhandledApiFailure(event.reason)) setShown(true);
    };
    window.addEventListener('unhandledrejection', onRejection);
    return () => window.removeEventListener('unhandledrejection', onRejection);
  }, []);
  if (!shown) return null;
  return (
    <div className="session-notice container" role="alert">
      <p>{t('app.reloadBanner')}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('app.reload')}
      </button>
    </div>
  );
}

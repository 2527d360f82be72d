import { useTranslation } from 'react-i18next';

export function BootLoading() {
  const { t } = useTranslation();
  return (
    <main id="main" className="boot">
      <p className="page-status" role="status">
        {t('app.loading')}
      </p>
    </main>
  );
}

/** The API or the deployment config could not be reached: say so plainly and offer a reload. */
export function BootError() {
  const { t } = useTranslation();
  return (
    <main id="main" className="boot">
      <div className="boot__card" role="alert">
        <h1>{t('app.bootError.title')}</h1>
        <p>{t('app.bootError.body')}</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('app.bootError.retry')}
        </button>
      </div>
    </main>
  );
}

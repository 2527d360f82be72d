import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ScreenSections } from '../../components/ScreenSections';
import { useDocumentTitle } from '../../app/useDocumentTitle';

/** Catch-all 404, also used for events that do not exist: 'Oops!', the message, a link home. */
export function NotFoundScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('notFound.title'));
  return (
    <div className="container page not-found">
      <ScreenSections
        screen="not-found"
        sections={{
          message: () => (
            <>
              <h1 className="page-title">{t('notFound.title')}</h1>
              <p>{t('notFound.body')}</p>
              <p>
                <Link className="button" to="/">
                  {t('notFound.home')}
                </Link>
              </p>
            </>
          ),
        }}
      />
    </div>
  );
}

import { observer } from 'mobx-react-lite';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { SavedCardsSection } from './SavedCardsSection';

/** /my/profile: email, first and last name, read-only (spec section 2), and the saved cards (issue 22). */
export const ProfilePage = observer(function ProfilePage() {
  const { t } = useTranslation();
  const { session } = useStores();
  useDocumentTitle(t('profile.title'));
  const email = session.user?.email ?? session.identity?.email ?? null;
  const value = (v: string | null | undefined) => (v?.trim() ? v : <span className="account-details__empty">{t('profile.notSet')}</span>);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title" className="page-title">
        {t('profile.title')}
      </h1>
      <div className="account-card">
        <dl className="account-details">
          <div>
            <dt>{t('profile.email')}</dt>
            <dd>{value(email)}</dd>
          </div>
          <div>
            <dt>{t('profile.firstName')}</dt>
            <dd>{value(session.identity?.first_name)}</dd>
          </div>
          <div>
            <dt>{t('profile.lastName')}</dt>
            <dd>{value(session.identity?.last_name)}</dd>
          </div>
        </dl>
        {!email && (
          <p>
            <Link to="/user/set-email-address">{t('profile.setEmail')}</Link>
          </p>
        )}
      </div>
      <SavedCardsSection />
    </section>
  );
});

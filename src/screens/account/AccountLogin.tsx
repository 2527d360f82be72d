import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { LoginForm } from '../../components/login/LoginForm';

/** Spec section 2: the account area shows a login form to a visitor who is not logged in. The page
 *  under it renders by itself once the session has a user. */
export function AccountLogin() {
  const { t } = useTranslation();
  useDocumentTitle(t('account.loginTitle'));
  return (
    <div className="container page account-login">
      <h1 className="page-title">{t('account.loginTitle')}</h1>
      <p>{t('account.loginIntro')}</p>
      <div className="account-login__form">
        <LoginForm />
      </div>
    </div>
  );
}

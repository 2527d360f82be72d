import { observer } from 'mobx-react-lite';
import { ScreenContent } from '../../components/ScreenSections';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useStores } from '../../stores/context';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import type { AccountStore } from '../../stores/AccountStore';
import { useNewAccountStore } from '../account/account-context';
import { EmailForm } from './EmailForm';
import '../account/account.css';

interface Props {
  /** i18n prefix holding title, intro, submit and done. */
  prefix: 'recovery.forgotPassword' | 'recovery.forgotMembership' | 'recovery.createAccount';
  send: (store: AccountStore, email: string) => Promise<boolean>;
}

/** Forgot password, create an account and forgot membership id: an email form answered by the same confirmation whatever the
 *  address (404 counts as success). Logged-in users are sent home (spec section 6). */
const EmailRequestScreen = observer(function EmailRequestScreen({ prefix, send }: Props) {
  const { t } = useTranslation();
  const { session } = useStores();
  const store = useNewAccountStore();
  useDocumentTitle(t(`${prefix}.title`));
  if (session.isLoggedIn) return <Navigate to="/" replace />;
  return (
    <div className="container page recovery-page">
      <ScreenContent screen="recovery">
        <h1 className="page-title">{t(`${prefix}.title`)}</h1>
        <div className="recovery-card">
          {store.forgot.state === 'done' ? (
            <p className="notice--success" role="status">
              {t(`${prefix}.done`)}
            </p>
          ) : (
            <>
              <p>{t(`${prefix}.intro`)}</p>
              <EmailForm request={store.forgot} submitLabel={t(`${prefix}.submit`)} onSubmit={(email) => send(store, email)} />
            </>
          )}
        </div>
      </ScreenContent>
    </div>
  );
});

/** /user/forgot-password: mails a reset link (POST password_reset/request). */
export function ForgotPasswordScreen() {
  return <EmailRequestScreen prefix="recovery.forgotPassword" send={(store, email) => store.requestPasswordReset(email)} />;
}

/** /user/create-account: a guest who bought asks for a link to set a password for the address they bought with; the
 *  server makes the account on their purchases (the same request as a reset, server/services/auth/guest-account.ts). */
export function CreateAccountScreen() {
  return <EmailRequestScreen prefix="recovery.createAccount" send={(store, email) => store.requestPasswordReset(email)} />;
}

/** /user/forgot-membership: mails the membership details (POST ticket_order/resend with memberships_only). */
export function ForgotMembershipScreen() {
  return <EmailRequestScreen prefix="recovery.forgotMembership" send={(store, email) => store.requestMembershipDetails(email)} />;
}

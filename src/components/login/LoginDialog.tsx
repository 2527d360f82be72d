import { observer } from 'mobx-react-lite';
import { useId } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Modal } from '../Modal';
import { LoginForm } from './LoginForm';

export interface LoginDialogProps {
  /** Offer 'Shop as a Guest' beside the login form (the login-or-guest dialog of spec section 2). */
  withGuest?: boolean;
  /** Where 'Shop as a Guest' and a successful login go next (e.g. /checkout); nowhere when absent. */
  next?: string;
  onClose: () => void;
}

/** The login dialog; with `withGuest` the login-or-guest dialog: 'Shop as a Guest' or log in. Closes on login success. */
export const LoginDialog = observer(function LoginDialog({ withGuest = false, next, onClose }: LoginDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const memberTitleId = useId();
  const go = () => {
    onClose();
    if (next) navigate(next);
  };
  return (
    <Modal title={t(withGuest ? 'login.dialogTitle' : 'login.title')} onClose={onClose}>
      <div className="login-dialog">
        {withGuest && (
          <div className="login-dialog__guest">
            <p>{t('login.guestText')}</p>
            <button type="button" className="button button--secondary" onClick={go}>
              {t('login.shopAsGuest')}
            </button>
          </div>
        )}
        <section aria-labelledby={withGuest ? memberTitleId : undefined}>
          {withGuest && (
            <h3 id={memberTitleId} className="login-dialog__title">
              {t('login.orMember')}
            </h3>
          )}
          <LoginForm onSuccess={go} onNavigate={onClose} />
        </section>
      </div>
    </Modal>
  );
});

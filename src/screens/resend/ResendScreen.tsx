import { useState } from 'react';
import { ScreenContent } from '../../components/ScreenSections';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { useNewAccountStore } from '../account/account-context';
import { EmailForm } from '../recovery/EmailForm';
import '../account/account.css';

/** /resend: mails the tickets of the address's orders again; 404 'No orders could be found for this email address.' */
export const ResendScreen = observer(function ResendScreen() {
  const { t } = useTranslation();
  const store = useNewAccountStore();
  const [sentTo, setSentTo] = useState('');
  useDocumentTitle(t('resend.title'));
  const handleSubmit = async (email: string) => {
    if (await store.resendTickets(email)) setSentTo(email);
  };
  return (
    <div className="container page recovery-page">
      <ScreenContent screen="resend">
        <h1 className="page-title">{t('resend.title')}</h1>
        <div className="recovery-card">
          {store.resend.state === 'done' ? (
            <p className="notice--success" role="status">
              {t('resend.done', { email: sentTo })}
            </p>
          ) : (
            <>
              <p>{t('resend.intro')}</p>
              <EmailForm request={store.resend} submitLabel={t('resend.submit')} onSubmit={handleSubmit} />
            </>
          )}
        </div>
      </ScreenContent>
    </div>
  );
});

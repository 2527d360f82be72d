import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Modal';
import { SafeHtml } from '../../components/ContentBlock';

interface Props {
  html: string;
  accepted: boolean;
  error: boolean;
  disabled: boolean;
  /** Opened by the parent when the shopper pays without accepting (spec section 5). */
  modalOpen: boolean;
  onModalOpenChange: (open: boolean) => void;
  onChange: (accepted: boolean) => void;
  onDecline: () => void;
}

/** The terms checkbox, with the seller's terms in a dialog offering Accept and Decline. */
export function TermsField({ html, accepted, error, disabled, modalOpen, onModalOpenChange, onChange, onDecline }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className={`form-field terms${error ? ' form-field--invalid' : ''}`}>
      <div className="terms__row">
        <input
          id={id}
          type="checkbox"
          checked={accepted}
          disabled={disabled}
          aria-required="true"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => onChange(e.target.checked)}
        />
        <label htmlFor={id}>{t('terms.label')}</label>
      </div>
      <button type="button" className="link-button" onClick={() => onModalOpenChange(true)}>
        {t('terms.read')}
      </button>
      {error && (
        <p id={`${id}-error`} className="form-field__error">
          {t('terms.required')}
        </p>
      )}
      {modalOpen && (
        <Modal title={t('terms.title')} onClose={() => onModalOpenChange(false)}>
          <SafeHtml className="terms__content" html={html} />
          <div className="modal__actions">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                onModalOpenChange(false);
                onDecline();
              }}
            >
              {t('terms.decline')}
            </button>
            <button
              type="button"
              className="button"
              onClick={() => {
                onModalOpenChange(false);
                onChange(true);
              }}
            >
              {t('terms.accept')}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}

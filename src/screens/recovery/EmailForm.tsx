import { useId, useRef, useState, type FormEvent } from 'react';
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import type { Request } from '../../stores/AccountStore';
import { EMAIL_MAX, emailError, type EmailError } from './rules';

export const EMAIL_ERROR_KEY: Record<EmailError, string> = {
  required: 'recovery.emailRequired',
  invalid: 'recovery.emailInvalid',
  too_long: 'recovery.emailTooLong',
  mismatch: 'recovery.setEmail.mismatch',
};

interface Props {
  request: Request<unknown>;
  submitLabel: string;
  /** Sends the address; the request shows its outcome. */
  onSubmit: (email: string) => Promise<unknown>;
}

/** Spec section 5 email form: one required email field (max 254), checked here before it is sent. */
export const EmailForm = observer(function EmailForm({ request, submitLabel, onSubmit }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<EmailError | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = emailError(email);
    setError(problem);
    if (problem) {
      input.current?.focus();
      return;
    }
    void onSubmit(email.trim());
  };

  const errorId = `${id}-error`;
  return (
    <form className="recovery-form" noValidate onSubmit={handleSubmit}>
      <div className="field">
        <label htmlFor={`${id}-email`}>{t('recovery.emailLabel')}</label>
        <input
          ref={input}
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={EMAIL_MAX}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {error && (
          <p id={errorId} className="field__error">
            {t(EMAIL_ERROR_KEY[error])}
          </p>
        )}
      </div>
      {request.state === 'error' && request.error && (
        <p className="notice--error" role="alert">
          {t(request.error.key, request.error.values)}
        </p>
      )}
      <p>
        <button type="submit" className="button" disabled={request.loading}>
          {request.loading ? t('recovery.sending') : submitLabel}
        </button>
      </p>
    </form>
  );
});

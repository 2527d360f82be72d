import { useId, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MAX, passwordChecklist, type PasswordFormError } from '../domain/password';
import './new-password.css';

const PASSWORD_ERROR_KEY: Record<PasswordFormError, string> = {
  required: 'recovery.reset.required',
  invalid: 'recovery.reset.invalidPassword',
  mismatch: 'recovery.reset.mismatch',
};
const CONFIRM_ERROR_KEY: Record<PasswordFormError, string> = { ...PASSWORD_ERROR_KEY, required: 'recovery.reset.confirmRequired' };

/** The live checklist of spec section 5 password rules; each item says whether the password meets it. */
export function PasswordChecklist({ id, password }: { id: string; password: string }) {
  const { t } = useTranslation();
  return (
    <div id={id}>
      <p className="password-rules__title">{t('recovery.reset.rulesTitle')}</p>
      <ul className="password-rules">
        {passwordChecklist(password).map(({ rule, met }) => (
          <li key={rule} className={`password-rules__item password-rules__item--${met ? 'met' : 'unmet'}`} data-rule={rule} data-met={met}>
            <span className="password-rules__mark" aria-hidden="true">
              {met ? '✓' : '•'}
            </span>
            <span>
              {t(`recovery.reset.rule.${rule}`)}
              <span className="visually-hidden"> ({met ? t('recovery.reset.ruleMet') : t('recovery.reset.ruleNotMet')})</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface Props {
  password: string;
  confirm: string;
  errors: { password?: PasswordFormError; confirm?: PasswordFormError };
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  /** Labels of the two fields (the reset form asks for a 'New password', sign-up for a 'Password'). */
  labels: { password: string; confirm: string };
  disabled?: boolean;
  passwordRef?: Ref<HTMLInputElement>;
  confirmRef?: Ref<HTMLInputElement>;
  /** The form the fields belong to when they stand outside it (the checkout's, so Enter in them pays). */
  form?: string;
}

/**
 * A new password and its confirmation with the live checklist between them (spec section 5): the reset form, sign-up and
 * the checkout's 'create an account' ask for a password the same way. `autocomplete=new-password` lets a password
 * manager offer a strong one.
 */
/** One password input with its label and its error (tied to it), for the pair below. */
function PasswordInput({
  inputRef,
  ...p
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  error: string | null;
  describedBy?: string;
  disabled?: boolean;
  form?: string;
  inputRef?: Ref<HTMLInputElement>;
  onChange: (value: string) => void;
}) {
  const errorId = `${p.id}-error`;
  return (
    <div className="field">
      <label htmlFor={p.id}>{p.label}</label>
      <input
        ref={inputRef}
        id={p.id}
        name={p.name}
        type="password"
        autoComplete="new-password"
        required
        maxLength={PASSWORD_MAX}
        value={p.value}
        disabled={p.disabled}
        form={p.form}
        onChange={(e) => p.onChange(e.target.value)}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={[p.error ? errorId : '', p.describedBy ?? ''].filter(Boolean).join(' ') || undefined}
      />
      {p.error && (
        <p id={errorId} className="field__error">
          {p.error}
        </p>
      )}
    </div>
  );
}

export function NewPasswordFields(props: Props) {
  const { password, confirm, errors, onPassword, onConfirm, labels, disabled, passwordRef, confirmRef, form } = props;
  const { t } = useTranslation();
  const id = useId();
  const rules = `${id}-rules`;
  return (
    <>
      <PasswordInput
        id={`${id}-password`}
        name="password"
        label={labels.password}
        value={password}
        error={errors.password ? t(PASSWORD_ERROR_KEY[errors.password]) : null}
        describedBy={rules}
        disabled={disabled}
        form={form}
        inputRef={passwordRef}
        onChange={onPassword}
      />
      <PasswordChecklist id={rules} password={password} />
      <PasswordInput
        id={`${id}-confirm`}
        name="password_confirm"
        label={labels.confirm}
        value={confirm}
        error={errors.confirm ? t(CONFIRM_ERROR_KEY[errors.confirm]) : null}
        disabled={disabled}
        form={form}
        inputRef={confirmRef}
        onChange={onConfirm}
      />
    </>
  );
}

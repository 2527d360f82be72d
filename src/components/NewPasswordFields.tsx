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
export function NewPasswordFields(props: Props) {
  const { password, confirm, errors, onPassword, onConfirm, labels, disabled, passwordRef, confirmRef, form } = props;
  const { t } = useTranslation();
  const id = useId();
  const ids = { password: `${id}-password`, confirm: `${id}-confirm`, rules: `${id}-rules` };
  return (
    <>
      <div className="field">
        <label htmlFor={ids.password}>{labels.password}</label>
        <input
          ref={passwordRef}
          id={ids.password}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          value={password}
          disabled={disabled}
          form={form}
          onChange={(e) => onPassword(e.target.value)}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={[errors.password ? `${ids.password}-error` : '', ids.rules].filter(Boolean).join(' ')}
        />
        {errors.password && (
          <p id={`${ids.password}-error`} className="field__error">
            {t(PASSWORD_ERROR_KEY[errors.password])}
          </p>
        )}
      </div>
      <PasswordChecklist id={ids.rules} password={password} />
      <div className="field">
        <label htmlFor={ids.confirm}>{labels.confirm}</label>
        <input
          ref={confirmRef}
          id={ids.confirm}
          name="password_confirm"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          value={confirm}
          disabled={disabled}
          form={form}
          onChange={(e) => onConfirm(e.target.value)}
          aria-invalid={errors.confirm ? true : undefined}
          aria-describedby={errors.confirm ? `${ids.confirm}-error` : undefined}
        />
        {errors.confirm && (
          <p id={`${ids.confirm}-error`} className="field__error">
            {t(CONFIRM_ERROR_KEY[errors.confirm])}
          </p>
        )}
      </div>
    </>
  );
}

import { useId, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import type { PasswordFormError } from '../../domain/password';

export interface AccountChoice {
  create: boolean;
  password: string;
  confirm: string;
}

export const NO_ACCOUNT: AccountChoice = { create: false, password: '', confirm: '' };

interface Props {
  value: AccountChoice;
  errors: { password?: PasswordFormError; confirm?: PasswordFormError };
  disabled?: boolean;
  onChange: (value: AccountChoice) => void;
  passwordRef?: Ref<HTMLInputElement>;
  confirmRef?: Ref<HTMLInputElement>;
  /** The purchaser form's id: the fields stand outside it but pay with it. */
  form: string;
}

/**
 * 'Create an account with these details' for a guest purchaser (issue 13): ticked, it asks for a password (spec section 5
 * rules, with the live checklist) that the purchaser's POST user carries; the account is the purchaser's name and e-mail.
 */
export function AccountOption({ value, errors, disabled, onChange, passwordRef, confirmRef, form }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="form-field terms checkout-account">
      <div className="terms__row">
        <input
          id={`${id}-create`}
          type="checkbox"
          checked={value.create}
          disabled={disabled}
          form={form}
          onChange={(e) => onChange({ ...value, create: e.target.checked })}
          aria-describedby={`${id}-hint`}
        />
        <label htmlFor={`${id}-create`}>{t('checkout.account.create')}</label>
      </div>
      <p id={`${id}-hint`} className="card-form__hint">
        {t('checkout.account.hint')}
      </p>
      {value.create && (
        <div className="checkout-account__fields">
          <NewPasswordFields
            password={value.password}
            confirm={value.confirm}
            errors={errors}
            onPassword={(password) => onChange({ ...value, password })}
            onConfirm={(confirm) => onChange({ ...value, confirm })}
            labels={{ password: t('checkout.account.password'), confirm: t('checkout.account.confirm') }}
            disabled={disabled}
            passwordRef={passwordRef}
            confirmRef={confirmRef}
            form={form}
          />
        </div>
      )}
    </div>
  );
}

import { observer } from 'mobx-react-lite';
import { useId, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { LOGIN_MAX_LENGTH, type LoginField } from '../../domain/login';
import type { LoginFlowStore } from '../../stores/LoginFlowStore';

/** How each login field is typed: keyboard, autofill and (except the stripped code) a native length cap. */
const INPUT: Record<LoginField, { type: string; autoComplete: string; inputMode?: 'numeric' | 'text' | 'email'; cap: boolean }> = {
  username: { type: 'email', autoComplete: 'email', inputMode: 'email', cap: true },
  password: { type: 'password', autoComplete: 'current-password', cap: true },
  scan_code: { type: 'text', autoComplete: 'off', cap: true },
  // Spec section 5: ZIP max 5, a tel input.
  zip_code: { type: 'tel', autoComplete: 'postal-code', inputMode: 'numeric', cap: true },
  last_name: { type: 'text', autoComplete: 'family-name', cap: true },
  // No maxLength: a pasted '123 456' must reach the stripping rule whole.
  otp: { type: 'text', autoComplete: 'one-time-code', inputMode: 'text', cap: false },
};

interface Props {
  flow: LoginFlowStore;
  field: LoginField;
  inputRef?: Ref<HTMLInputElement>;
}

/** One labelled login input; its error is announced and tied to it with aria-describedby. */
export const LoginInput = observer(function LoginInput({ flow, field, inputRef }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  const spec = INPUT[field];
  const error = flow.fieldErrors[field];
  return (
    <div className={error ? 'form-field form-field--invalid' : 'form-field'}>
      <label className="form-field__label" htmlFor={id}>
        {t(`login.fields.${field}`)}
        <span className="form-field__required" aria-hidden="true">
          {' '}
          *
        </span>
      </label>
      <input
        ref={inputRef}
        id={id}
        name={field}
        className="form-control"
        type={spec.type}
        autoComplete={spec.autoComplete}
        inputMode={spec.inputMode}
        maxLength={spec.cap ? LOGIN_MAX_LENGTH[field] : undefined}
        required
        aria-required="true"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        spellCheck={false}
        autoCapitalize={field === 'otp' || field === 'scan_code' ? 'characters' : 'off'}
        value={flow.values[field] ?? ''}
        disabled={flow.submitting}
        onChange={(e) => flow.setField(field, e.target.value)}
      />
      {error && (
        <p id={errorId} className="form-field__error">
          {t(`login.fieldErrors.${error}`)}
        </p>
      )}
    </div>
  );
});

import type { FormEvent, RefObject } from 'react';
import '../styles/promo.css';

/**
 * A one-field form that applies a code (the promo code, gift card and blocked-cart code fields): a label, an optional
 * hint, the text field with its Apply button, and the refusal under it, tied to the field by aria-describedby and
 * marked aria-invalid. The caller keeps the value, the refusal and the focus.
 */
export function CodeForm({
  id,
  name,
  label,
  hint,
  value,
  error,
  busy,
  disabled = false,
  maxLength,
  applyLabel,
  busyLabel,
  primary = false,
  inputRef,
  onChange,
  onSubmit,
}: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  value: string;
  error: string | null;
  busy: boolean;
  disabled?: boolean;
  maxLength: number;
  applyLabel: string;
  busyLabel: string;
  /** the form's button is the page's next step (the blocked-cart code), not a side action */
  primary?: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
  onChange: (value: string) => void;
  onSubmit: (e: FormEvent) => void;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <form className="promo__form" noValidate onSubmit={onSubmit}>
      <div className={`form-field promo__field${error ? ' form-field--invalid' : ''}`}>
        <label htmlFor={`${id}-input`} className="form-field__label">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="code-form__hint">
            {hint}
          </p>
        )}
        <div className="promo__row">
          <input
            ref={inputRef}
            id={`${id}-input`}
            name={name}
            className="form-control"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={maxLength}
            value={value}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={described || undefined}
            onChange={(e) => onChange(e.target.value)}
          />
          <button type="submit" className={`button${primary ? '' : ' button--secondary'} promo__apply`} disabled={disabled || busy}>
            {busy ? busyLabel : applyLabel}
          </button>
        </div>
        {error && (
          <p id={`${id}-error`} className="form-field__error" role="alert">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}

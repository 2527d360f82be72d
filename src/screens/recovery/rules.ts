/**
 * Pure rules of the e-mail and sign-up forms (spec section 5), no React and no I/O. The password rules are the domain's
 * (src/domain/password.ts), which the server enforces too.
 */
import { validatePasswordForm, type PasswordFormError } from '../../domain/password';

/** Spec section 5, email forms: email type, max 254, required. */
export const EMAIL_MAX = 254;

export type EmailError = 'required' | 'invalid' | 'too_long' | 'mismatch';

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/** Email forms: required, max 254, an address. With `domainDot` (set-email form) the domain must contain a
 *  dot ('Email address is not valid.'). */
export function emailError(raw: string, opts: { domainDot?: boolean } = {}): EmailError | null {
  const email = raw.trim();
  if (!email) return 'required';
  if (email.length > EMAIL_MAX) return 'too_long';
  if (!EMAIL_SHAPE.test(email)) return 'invalid';
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (opts.domainDot && (!domain.includes('.') || domain.startsWith('.') || domain.endsWith('.'))) return 'invalid';
  return null;
}

/** Set-email form: both entries valid and equal ignoring case ('Email addresses must match.'). */
export function validateSetEmail(email: string, confirm: string): { email?: EmailError; confirm?: EmailError } {
  const errors: { email?: EmailError; confirm?: EmailError } = {};
  const first = emailError(email, { domainDot: true });
  if (first) errors.email = first;
  if (!confirm.trim()) errors.confirm = 'required';
  else if (confirm.trim().toLowerCase() !== email.trim().toLowerCase()) errors.confirm = 'mismatch';
  return errors;
}

/** Spec section 5: names are required, at most 50 characters. */
export const NAME_MAX = 50;

export type NameError = 'required' | 'too_long';

export interface SignUpForm {
  first_name: string;
  last_name: string;
  email: string;
  email_confirm: string;
  password: string;
  password_confirm: string;
}

export interface SignUpErrors {
  first_name?: NameError;
  last_name?: NameError;
  email?: EmailError;
  email_confirm?: EmailError;
  password?: PasswordFormError;
  password_confirm?: PasswordFormError;
}

const nameError = (raw: string): NameError | null => (!raw.trim() ? 'required' : raw.trim().length > NAME_MAX ? 'too_long' : null);

/** Sign-up (issue 13, spec section 5's identity form): names, an e-mail confirmed ignoring case, a password meeting the
 *  rules and confirmed. The fields in the order the form shows them, so the first error is the first field to fix. */
export function validateSignUp(form: SignUpForm): SignUpErrors {
  const errors: SignUpErrors = {};
  const first = nameError(form.first_name);
  if (first) errors.first_name = first;
  const last = nameError(form.last_name);
  if (last) errors.last_name = last;
  const email = emailError(form.email);
  if (email) errors.email = email;
  if (!form.email_confirm.trim()) errors.email_confirm = 'required';
  else if (form.email_confirm.trim().toLowerCase() !== form.email.trim().toLowerCase()) errors.email_confirm = 'mismatch';
  const password = validatePasswordForm(form.password, form.password_confirm);
  if (password.password) errors.password = password.password;
  if (password.confirm) errors.password_confirm = password.confirm;
  return errors;
}

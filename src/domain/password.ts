/**
 * Password strength of spec section 5, one copy for the storefront's forms (the live checklist, sign-up, reset) and the
 * server that enforces it: 8 to 254 characters, no leading or trailing space, printable characters only, and at least
 * 3 of the 4 classes (uppercase, lowercase, digit, special). No I/O.
 */

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 254;
/** The rules of the live checklist, in the order it shows them. */
export const PASSWORD_RULES = ['min_length', 'max_length', 'surrounding_space', 'printable', 'character_classes'] as const;
export type PasswordRule = (typeof PASSWORD_RULES)[number];

export interface PasswordCheck {
  rule: PasswordRule;
  met: boolean;
}

const CLASSES = [/\p{Lu}/u, /\p{Ll}/u, /\p{Nd}/u, /[^\p{Lu}\p{Ll}\p{Nd}]/u];

/** How many of the 4 classes (uppercase, lowercase, digit, special) the password uses. */
export function characterClasses(password: string): number {
  return CLASSES.filter((re) => re.test(password)).length;
}

/** Printable: no control, format, unassigned or line/paragraph separator characters, and no whitespace
 *  other than the plain space. */
export function isPrintable(password: string): boolean {
  return !(/[^\P{C}]|[\p{Zl}\p{Zp}]/u.test(password) || /[^\S ]/u.test(password));
}

/** Each rule of the checklist and whether the password meets it. */
export function passwordChecklist(password: string): PasswordCheck[] {
  const length = [...password].length;
  const met: Record<PasswordRule, boolean> = {
    min_length: length >= PASSWORD_MIN,
    max_length: length <= PASSWORD_MAX,
    surrounding_space: password === password.trim(),
    printable: isPrintable(password),
    character_classes: characterClasses(password) >= 3,
  };
  return PASSWORD_RULES.map((rule) => ({ rule, met: met[rule] }));
}

export function passwordProblems(password: string): PasswordRule[] {
  return passwordChecklist(password)
    .filter((c) => !c.met)
    .map((c) => c.rule);
}

export type PasswordFormError = 'required' | 'invalid' | 'mismatch';

/** Reset form: new password required and meeting the rules ('Invalid password'); confirmation matches. */
export function validatePasswordForm(password: string, confirm: string): { password?: PasswordFormError; confirm?: PasswordFormError } {
  const errors: { password?: PasswordFormError; confirm?: PasswordFormError } = {};
  if (!password) errors.password = 'required';
  else if (passwordProblems(password).length) errors.password = 'invalid';
  if (!confirm) errors.confirm = 'required';
  else if (confirm !== password) errors.confirm = 'mismatch';
  return errors;
}

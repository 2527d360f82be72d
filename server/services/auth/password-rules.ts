/**
 * Password strength of spec section 5: 8 to 254 characters, no leading or trailing space, printable
 * characters only, and at least 3 of the 4 classes (uppercase, lowercase, digit, special).
 * Returns the broken rules (empty when the password is acceptable).
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 254;

export type PasswordRule = 'min_length' | 'max_length' | 'surrounding_space' | 'printable' | 'character_classes';

export function passwordProblems(password: string): PasswordRule[] {
  const problems: PasswordRule[] = [];
  const chars = [...password];
  if (chars.length < PASSWORD_MIN) problems.push('min_length');
  if (chars.length > PASSWORD_MAX) problems.push('max_length');
  if (password !== password.trim()) problems.push('surrounding_space');
  // Printable: no control, format, unassigned or separator characters other than the plain space.
  if (/[^\P{C}]|[\p{Zl}\p{Zp}]/u.test(password) || /[^\S ]/u.test(password)) problems.push('printable');
  const classes = [/\p{Lu}/u, /\p{Ll}/u, /\p{Nd}/u, /[^\p{Lu}\p{Ll}\p{Nd}]/u].filter((re) => re.test(password)).length;
  if (classes < 3) problems.push('character_classes');
  return problems;
}

/** The blocked-cart code form (spec sections 2, 5, 8; issue 13): what may be sent, and how a refusal is worded. */

/** Spec section 5: a blocked-cart checkout code is required and at least 2 characters (trimmed). */
export const BLOCKED_CODE_MIN = 2;

export function blockedCodeProblem(typed: string): 'required' | 'min' | null {
  const code = typed.trim();
  if (!code) return 'required';
  if (code.length < BLOCKED_CODE_MIN) return 'min';
  return null;
}

/** Spec section 8: the refusal's own message, with 'Please try another one.' added for these codes. */
const TRY_ANOTHER = new Set(['code_not_found', 'code_exhausted', 'no_code_benefit']);
export const asksForAnotherCode = (errorCode: string) => TRY_ANOTHER.has(errorCode);

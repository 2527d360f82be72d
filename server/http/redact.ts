/** Personal data that never reaches a log line (spec section 7; DESIGN.md section 4). */
const SECRET_KEYS = new Set([
  'first_name',
  'last_name',
  'email',
  'email_confirm',
  'username',
  'password',
  'password_confirm',
  'additional_info',
  'admit_name',
  'admit_email',
  'phone',
  'address',
  'address_more',
  'zip_code',
  'otp',
  'token',
  'card',
  'number',
  'cvc',
]);
export const REDACTED = 'REDACTED';

/** A copy of `value` with every secret key's value replaced, at any depth (cycles and depth bounded). */
export function redactDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8 || seen.has(value)) return '[…]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key) ? REDACTED : redactDeep(v, depth + 1, seen);
  }
  return out;
}

/** The log form of an error: its name, message, code and stack, and its own fields redacted. */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return redactDeep(err);
  const own = redactDeep({ ...(err as unknown as Record<string, unknown>) }) as Record<string, unknown>;
  return { ...own, type: err.name, message: err.message, stack: err.stack };
}

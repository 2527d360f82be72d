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

/**
 * Fields of a database error that carry the values of the statement: its bound parameters (PGlite puts them on the
 * error) and PostgreSQL's detail ('Key (email)=(ada@example.org) already exists.'). A log keeps the SQL text, the
 * code and the message, never these.
 */
const VALUE_KEYS = new Set(['params', 'parameters', 'values', 'bindings', 'detail', 'where', 'internalQuery']);

/** The log form of an error: its name, message, code and stack, its own fields redacted and its values dropped. */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return redactDeep(err);
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err as unknown as Record<string, unknown>)) {
    if (VALUE_KEYS.has(key)) continue;
    own[key] = key === 'cause' && depth < 3 ? serializeError(value, depth + 1) : value;
  }
  return { ...(redactDeep(own) as Record<string, unknown>), type: err.name, message: err.message, stack: err.stack };
}

/** A PostgreSQL data exception (SQLSTATE class 22: a NUL in text, a value out of range, ...): bad input that got past
 *  the schemas, answered as such rather than as a 500. */
export function isDataException(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

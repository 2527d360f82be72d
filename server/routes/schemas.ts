/** JSON Schema primitives shared by the routes (Fastify validates every param, query and body with them). */
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

export const uuid = { type: 'string', format: 'uuid' } as const;
/** A comma list of at most 100 uuids. */
export const uuidList = { type: 'string', maxLength: 3700, pattern: `^${UUID}(,${UUID}){0,99}$` } as const;
/** Free text without control characters (PostgreSQL refuses NUL in text, and no filter needs them). */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
export const safeText = { type: 'string', maxLength: 200, pattern: NO_CONTROL } as const;
/** The seller's id or slug. */
export const seller = { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' } as const;
export const embed = { type: 'string', maxLength: 500, pattern: '^[A-Za-z0-9_.,]*$' } as const;
/** _limit is capped at 100 by the services; larger asks get 100 rows. */
export const limit = { type: 'integer', minimum: 0, maximum: 1_000_000_000 } as const;
export const offset = { type: 'integer', minimum: 0, maximum: 1_000_000 } as const;
/** Shape only; the services refuse impossible dates such as 2026-02-30. */
export const isoDate = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
/** An ISO date-time with offset, or a plain date (start of that venue-local day). */
export const dateOrDateTime = { type: 'string', maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?$' } as const;
export const timeOfDay = { type: 'string', pattern: '^\\d{2}:\\d{2}$' } as const;
export const boolFlag = { type: 'string', enum: ['T', 'F', 't', 'f', 'true', 'false', '1', '0'] } as const;
export const hiddenTypeList = {
  type: 'string', maxLength: 200,
  pattern: '^(public_browsable|public_member_only|public_link_only|hidden)(,(public_browsable|public_member_only|public_link_only|hidden))*$',
} as const;
export const category = safeText;
export const sessionSort = { type: 'string', enum: ['start_datetime', '-start_datetime'] } as const;

export const idParams = { type: 'object', required: ['id'], properties: { id: uuid } } as const;

/** Ticket quantities: [{ticket_type_id, quantity}] (spec section 9: per-type cap 1000). */
export const ticketLines = {
  type: 'array', minItems: 1, maxItems: 100,
  items: {
    type: 'object', additionalProperties: false, required: ['ticket_type_id', 'quantity'],
    properties: { ticket_type_id: uuid, quantity: { type: 'integer', minimum: 1, maximum: 1000 } },
  },
} as const;

/** Queries accept extra keys (metadata.KEY, cache busters) but every named key is checked. */
export function query(properties: Record<string, object>, extra: Record<string, unknown> = {}) {
  return { type: 'object', properties: { _seller: seller, ...properties }, additionalProperties: true, ...extra } as const;
}

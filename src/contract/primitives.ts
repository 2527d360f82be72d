import { Type, type Static, type TProperties, type TSchema } from 'typebox';
import { PER_TYPE_CAP } from './limits';

/**
 * Schema primitives of the API contract, shared by every route. The server validates input with them (Fastify and
 * ajv) and serialises answers with them; the OpenAPI document at GET /api/openapi.json is generated from them; the
 * storefront's wire types are `Static<>` of them. The browser imports this folder for types only.
 */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/**
 * Free text without control characters and without lone surrogates: PostgreSQL refuses NUL in text and a lone
 * surrogate in JSON, and no name, address or filter needs either (issue 20, finding 4). ajv reads patterns in
 * Unicode mode, where a pair that makes one character (an emoji) is not in the surrogate range.
 */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$';
/** The same for text a shopper types over several lines (answers to a question): tab and line breaks allowed. */
const NO_CONTROL_MULTILINE = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f\\ud800-\\udfff]*$';

/** A uuid, in any case (ids are compared lower-cased). */
export const Uuid = Type.String({ pattern: `^${UUID}$` });
/** A comma list of at most 100 uuids. */
export const UuidList = Type.String({ maxLength: 3700, pattern: `^${UUID}(,${UUID}){0,99}$` });
/** Free text of a query (filters): bounded, no control characters. */
export const SafeText = Type.String({ maxLength: 200, pattern: NO_CONTROL });
/** Free text of a body, query or header: bounded, no control characters (`multiline`: tab and line breaks allowed). */
export const Text = (maxLength: number, opts: { minLength?: number; multiline?: boolean } = {}) =>
  Type.String({
    maxLength,
    ...(opts.minLength ? { minLength: opts.minLength } : {}),
    pattern: opts.multiline ? NO_CONTROL_MULTILINE : NO_CONTROL,
  });
/** The seller's id or slug (DESIGN.md section 3: the `_seller` query parameter); the one schema every route uses. */
export const SellerRef = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });
/** A query naming only the seller. */
export const SellerQuery = Type.Object({ _seller: Type.Optional(SellerRef) });

/**
 * Additional info and survey answers: flat and closed (issue 20, finding 4). Keys of a known shape, at most 50 of
 * them; values are short text, numbers, yes/no or a list of short choices. No nesting: a 10,000-deep object is refused
 * by its shape, before anything reads it.
 */
const INFO_KEY = '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$';
// One `type` list, not anyOf: ajv's type coercion would turn the answer "40" of a text question into a number in
// whichever branch came first; with a list, a value of one of the types is taken as it is.
export const InfoValue = Type.Unsafe<string | number | boolean | null | string[]>({
  type: ['string', 'number', 'boolean', 'null', 'array'],
  // Twice the spec's 1000 for custom fields: the services say which field is too long, in the spec's words.
  maxLength: 2000,
  pattern: NO_CONTROL_MULTILINE,
  items: { type: 'string', maxLength: 200, pattern: NO_CONTROL },
  maxItems: 50,
});
export const FlatInfo = Type.Record(Type.String({ pattern: INFO_KEY }), InfoValue, { maxProperties: 50, additionalProperties: false });
/** Survey answers by ticket group id, each flat (spec section 7: additional info keyed by group id). */
export const SurveyAnswers = Type.Record(Type.String({ pattern: `^${UUID}$` }), FlatInfo, {
  maxProperties: 50,
  additionalProperties: false,
});
/** `_embed`: a comma list of related tables. */
export const Embed = Type.String({ maxLength: 500, pattern: '^[A-Za-z0-9_.,]*$' });
/** `_limit` is capped at 100 by the services; larger asks get 100 rows. */
export const Limit = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000 });
/** Shape only; the services refuse impossible dates such as 2026-02-30. */
export const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/** An ISO date-time with offset, or a plain date (start of that venue-local day). */
export const DateOrDateTime = Type.String({ maxLength: 40, pattern: '^\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?$' });
export const TimeOfDay = Type.String({ pattern: '^\\d{2}:\\d{2}$' });
/** One of these strings (an `enum`). */
export const Literals = <const T extends readonly string[]>(...values: T) => Type.Unsafe<T[number]>({ type: 'string', enum: values });

/** The spec's T/F query flags. */
export const BoolFlag = Literals('T', 'F', 't', 'f', 'true', 'false', '1', '0');
export const HiddenType = Literals('public_browsable', 'public_member_only', 'public_link_only', 'hidden');
export const HiddenTypeList = Type.String({
  maxLength: 200,
  pattern:
    '^(public_browsable|public_member_only|public_link_only|hidden)(,(public_browsable|public_member_only|public_link_only|hidden))*$',
});

/** Ticket quantities: [{ticket_type_id, quantity}] (spec section 9: per-type cap 1000). */
export const TicketLines = Type.Array(
  Type.Object(
    {
      ticket_type_id: Uuid,
      quantity: Type.Integer({ minimum: 1, maximum: PER_TYPE_CAP }),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: 100 },
);

/** `{ id }` path parameters. */
export const IdParams = Type.Object({ id: Uuid });

/** A query: `_seller` and the named keys, each checked; other keys (metadata.KEY, cache busters) pass. */
export const Query = <P extends TProperties>(properties: P, opts: Record<string, unknown> = {}) =>
  Type.Object({ _seller: Type.Optional(SellerRef), ...optionalAll(properties) }, { additionalProperties: true, ...opts });

/** A request body: only the named keys. */
export const Body = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });

type OptionalAll<P extends TProperties> = { [K in keyof P]: ReturnType<typeof Type.Optional<P[K]>> };
function optionalAll<P extends TProperties>(properties: P): OptionalAll<P> {
  return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v)])) as OptionalAll<P>;
}

// ---- answers ----

/** A row of an answer: closed, so a field the server sends but the contract does not name is a failure. */
export const Row = <P extends TProperties>(properties: P, opts: Record<string, unknown> = {}) =>
  Type.Object(properties, { additionalProperties: false, ...opts });

/** Wire money: a decimal string with two places ("12.50"); src/domain/money.ts reads and writes it. */
export const Money = Type.String({ pattern: '^-?\\d+\\.\\d{2}$' });
/**
 * A schema of one JSON type, or null, as one `type` list (its `enum`, if any, gains null), never an anyOf: to write an
 * anyOf, fast-json-stringify runs an ajv validator of each option on every value, compiled on the route's first answer
 * against the whole answer's schema (about a quarter of a second of the first page after a start); a `type` list it
 * tells apart with `typeof`. ajv validates both alike; OpenAPI 3.1 reads it as nullable.
 */
export const OrNull = <T extends TSchema>(schema: T) => {
  const { type, enum: values } = schema as { type?: unknown; enum?: unknown[] };
  if (typeof type !== 'string') throw new Error(`OrNull takes a schema of one type, not ${JSON.stringify(type)}`);
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}) });
};
export const NullableString = (extra: Record<string, unknown> = {}) => OrNull(Type.String(extra));
export const NullableInteger = () => OrNull(Type.Integer());
export const NullableMoney = OrNull(Money);
/** An instant, ISO 8601 in UTC. */
export const Instant = Type.String({ format: 'date-time' });
export const NullableInstant = OrNull(Instant);
/** A body that is not JSON (an image, a script): bytes or text of a media type. */
export const Binary = (mediaType: string, description: string) =>
  Type.Unsafe<Uint8Array | string>({ type: 'string', contentMediaType: mediaType, description });

/** Seller-defined JSON the storefront reads by key (meta, config, surveys): passed through as it is. */
export const Json = Type.Unknown();
export const JsonObject = Type.Record(Type.String(), Type.Unknown());

export type { TSchema };

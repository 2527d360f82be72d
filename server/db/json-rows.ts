/**
 * Rows a statement returns as JSON values (to_json, json_agg) carry their timestamps as text, where the driver gives a
 * plain row's as Dates. The catalogue's timestamp columns, turned back wherever they appear in such a value.
 */
const TS_KEYS = new Set(['start_datetime', 'end_datetime', 'sales_start', 'sales_end', 'start_policy_date']);

/** A JSON value read from the database, with the catalogue's timestamps as Dates, typed as the rows it holds. */
export const reviveRows = <T>(json: unknown): T =>
  JSON.parse(JSON.stringify(json ?? null), (k, v) => (TS_KEYS.has(k) && typeof v === 'string' ? new Date(v) : v)) as T;

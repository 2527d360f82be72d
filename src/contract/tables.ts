import { Type, type Static, type TSchema } from 'typebox';

/** The response shape of every read (DESIGN.md section 3): an object of tables, each `{ _data, _count }`. */
export const Table = <T extends TSchema>(row: T) =>
  Type.Object({ _data: Type.Array(row), _count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

export interface TableOf<T> {
  _data: T[];
  _count: number;
}
export type Tables = Record<string, TableOf<unknown>>;

export function table<T>(rows: T[], count: number = rows.length): TableOf<T> {
  return { _data: rows, _count: count };
}

/** `tables({ event_template: rows, venue: [...] })` -> `{ event_template: { _data, _count }, ... }` */
export function tables(map: Record<string, unknown[] | TableOf<unknown>>): Tables {
  const out: Tables = {};
  for (const [name, value] of Object.entries(map)) out[name] = Array.isArray(value) ? table(value) : value;
  return out;
}

export type { Static };

/** The response shape of every read: an object of tables, each `{ _data, _count }`. */
export interface Table<T = unknown> { _data: T[]; _count: number }
export type Tables = Record<string, Table>;

export function table<T>(rows: T[], count: number = rows.length): Table<T> {
  return { _data: rows, _count: count };
}

/** `tables({ event_template: rows, venue: [...] })` -> `{ event_template: { _data, _count }, ... }` */
export function tables(map: Record<string, unknown[] | Table>): Tables {
  const out: Tables = {};
  for (const [name, value] of Object.entries(map)) {
    out[name] = Array.isArray(value) ? table(value) : value;
  }
  return out;
}

/** Parses `_embed=a,b.c` into a set of names. */
export function parseEmbed(embed: string | undefined): Set<string> {
  return new Set((embed ?? '').split(',').map((s) => s.trim()).filter(Boolean));
}

/** Minor units -> the wire's decimal string ("1250" -> "12.50"). */
export function money(minor: number | null | undefined): string | null {
  if (minor === null || minor === undefined) return null;
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The wire's decimal string or number -> minor units; null when it is not a money amount. */
export function parseMoney(value: string | number): number | null {
  const s = String(value).trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(s)) return null;
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

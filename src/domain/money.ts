/**
 * Money on the wire: decimal strings with two places ("12.50"), inside the programs integer minor units
 * (DESIGN.md section 3). The one parser and the one writer, shared by the server and the storefront.
 */
const DECIMAL = /^(-?)(\d{1,9})(?:\.(\d{1,2}))?$/;

/** "12.5" or 12.5 -> 1250; null when it is not a money amount (or negative, unless allowed). */
export function parseMoney(value: string | number | null | undefined, opts: { allowNegative?: boolean } = {}): number | null {
  if (value === null || value === undefined) return null;
  const m = DECIMAL.exec(String(value).trim());
  if (!m || (m[1] && !opts.allowNegative)) return null;
  const minor = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -minor : minor;
}

/** 1250 -> "12.50" (the wire's decimal string); null stays null. */
export function money(minor: number): string;
export function money(minor: number | null | undefined): string | null;
export function money(minor: number | null | undefined): string | null {
  if (minor === null || minor === undefined) return null;
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

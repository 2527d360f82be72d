/**
 * CityPASS (spec section 8, issue 18): a CityPASS ticket is reserved with the visitor's CityPASS code, one code per
 * ticket. The event's config.web.citypass gives an adult and a child pattern; a ticket type is a child's when its name
 * holds one of the child keywords (default 'child'). The storefront checks a code as it is typed, the server checks it
 * again and takes each code once (server/services/citypass.ts).
 */

export interface CitypassSettings {
  /** a regular expression the whole code must match, spaces and hyphens left out (matched ignoring case) */
  adult_pattern?: string;
  child_pattern?: string;
  /** words that make a ticket type a child's ticket, matched in its name ignoring case; default ['child'] */
  child_keywords?: string[];
}

export type CitypassKind = 'adult' | 'child';

/** The longest code accepted (the wire's limit). */
export const CITYPASS_CODE_MAX = 55;
export const DEFAULT_CHILD_KEYWORDS: readonly string[] = ['child'];

/** The code as it is stored, matched and compared: without spaces and hyphens, upper case, so 'cpa 1234-5678' and
 *  'CPA12345678' are one code (and one use). Patterns are written for this form. */
export function normaliseCitypassCode(raw: string | null | undefined): string {
  return (raw ?? '').replace(/[\s-]+/g, '').toUpperCase();
}

/** Adult or child, by the ticket type's name. */
export function citypassKind(typeName: string, keywords: readonly string[] | undefined = DEFAULT_CHILD_KEYWORDS): CitypassKind {
  const name = typeName.toLowerCase();
  const words = keywords && keywords.length > 0 ? keywords : DEFAULT_CHILD_KEYWORDS;
  return words.some((k) => k.trim() && name.includes(k.trim().toLowerCase())) ? 'child' : 'adult';
}

/** The pattern for a kind as a whole-code expression, or null when it is missing or not a valid expression. */
export function citypassPattern(settings: CitypassSettings | null | undefined, kind: CitypassKind): RegExp | null {
  const source = kind === 'child' ? settings?.child_pattern : settings?.adult_pattern;
  if (typeof source !== 'string' || source.trim() === '') return null;
  try {
    return new RegExp(`^(?:${source})$`, 'iu');
  } catch {
    return null;
  }
}

/** Why a code cannot be used for a ticket of this kind, or null when it matches: 'missing' or 'format'. */
export function citypassCodeProblem(
  code: string | null | undefined,
  kind: CitypassKind,
  settings: CitypassSettings | null | undefined,
): 'missing' | 'format' | null {
  const value = normaliseCitypassCode(code);
  if (!value) return 'missing';
  const pattern = citypassPattern(settings, kind);
  return value.length <= CITYPASS_CODE_MAX && pattern?.test(value) ? null : 'format';
}

/** What is wrong with an event's CityPASS settings (for the seller loader), empty when both patterns work. */
export function citypassSettingsIssues(settings: CitypassSettings | null | undefined): Array<{ field: string; message: string }> {
  const issues: Array<{ field: string; message: string }> = [];
  for (const kind of ['adult', 'child'] as const) {
    const field = `${kind}_pattern` as const;
    const source = settings?.[field];
    if (typeof source !== 'string' || !source.trim())
      issues.push({ field, message: `a CityPASS event needs config.web.citypass.${field}` });
    else if (!citypassPattern(settings, kind)) issues.push({ field, message: `'${source}' is not a valid regular expression` });
  }
  return issues;
}

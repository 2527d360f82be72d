import { DomainError } from './errors';
import { isValidIsoDate, isValidTimeOfDay, startOfVenueDay } from '../../src/domain/dates';

/** Shared readers of query values the route schemas already shaped; they refuse what a schema cannot. */

export const MAX_LIMIT = 100;

export function invalid(field: string, description: string, context?: string): DomainError {
  return new DomainError('validation_failed', description, context, { field });
}

/** Parses `_embed=a,b.c` into a set of names. */
export function parseEmbed(embed: string | undefined): Set<string> {
  return new Set(
    (embed ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** 'a,b,,c' -> ['a','b','c']; undefined stays undefined (no filter). */
export function csv(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function page(limit: number | undefined, offset: number | undefined, defaultLimit = MAX_LIMIT) {
  return { limit: Math.min(limit ?? defaultLimit, MAX_LIMIT), offset: offset ?? 0 };
}

/** A calendar date the schema matched by shape; '2026-02-30' is refused here. */
export function isoDate(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isValidIsoDate(value)) throw invalid(field, `Invalid query.${field}: not a calendar date`);
  return value;
}

export function timeOfDay(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isValidTimeOfDay(value)) throw invalid(field, `Invalid query.${field}: expected HH:mm`);
  return value;
}

/** An ISO instant, or a plain date meaning the start of that day in the given timezone. */
export function instant(field: string, value: string | undefined, tz: string): Date | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return startOfVenueDay(isoDate(field, value)!, tz);
  const t = Date.parse(value);
  if (!Number.isFinite(t) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw invalid(field, `Invalid query.${field}: not an ISO date-time`);
  const d = new Date(t);
  if (d.getUTCFullYear() < 1900 || d.getUTCFullYear() > 2200) throw invalid(field, `Invalid query.${field}: out of range`);
  return d;
}

/** 'T'/'F' (and true/false) flags of the spec's query strings. */
export function flag(value: string | boolean | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  return ['t', 'true', '1', 'yes'].includes(value.toLowerCase());
}

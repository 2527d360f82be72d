import { addDays, startOfVenueDay, venueDate } from './dates';

/** The events listing filters of spec section 2, read from and written to the address query. */
export type DateFilter = 'today' | 'tomorrow';
export const DATE_FILTERS: readonly DateFilter[] = ['today', 'tomorrow'];

export interface EventFilters {
  date?: DateFilter;
  category?: string;
  /** "HH:mm", venue-local time of day a session starts at or after. */
  timeStart?: string;
  /** "HH:mm", exclusive. */
  timeEnd?: string;
  /** event_template.metadata[KEY] = value */
  metadata: Record<string, string>;
}

/** What the seller allows to filter on (config.web.event_filters); anything else in the query is ignored. */
export interface FilterOptions {
  categories: readonly string[];
  metadataKeys: readonly string[];
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const METADATA_PREFIX = 'metadata.';

export const QUERY_KEYS = { date: 'date', category: 'category', timeStart: 'time.start', timeEnd: 'time.end' } as const;

export function parseEventFilters(search: URLSearchParams, options: FilterOptions): EventFilters {
  const filters: EventFilters = { metadata: {} };
  const date = search.get(QUERY_KEYS.date);
  if (date && (DATE_FILTERS as readonly string[]).includes(date)) filters.date = date as DateFilter;
  const category = search.get(QUERY_KEYS.category);
  if (category && options.categories.includes(category)) filters.category = category;
  const timeStart = search.get(QUERY_KEYS.timeStart);
  if (timeStart && TIME.test(timeStart)) filters.timeStart = timeStart;
  const timeEnd = search.get(QUERY_KEYS.timeEnd);
  if (timeEnd && TIME.test(timeEnd)) filters.timeEnd = timeEnd;
  for (const key of options.metadataKeys) {
    const value = search.get(METADATA_PREFIX + key);
    if (value) filters.metadata[key] = value;
  }
  return filters;
}

/** The address query for a set of filters, in a stable order so equal filters give equal URLs. */
export function eventFiltersToQuery(filters: EventFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.date) query.set(QUERY_KEYS.date, filters.date);
  if (filters.category) query.set(QUERY_KEYS.category, filters.category);
  if (filters.timeStart) query.set(QUERY_KEYS.timeStart, filters.timeStart);
  if (filters.timeEnd) query.set(QUERY_KEYS.timeEnd, filters.timeEnd);
  for (const key of Object.keys(filters.metadata).sort()) {
    if (filters.metadata[key]) query.set(METADATA_PREFIX + key, filters.metadata[key]);
  }
  return query;
}

export function hasActiveFilters(filters: EventFilters): boolean {
  return Boolean(filters.date || filters.category || filters.timeStart || filters.timeEnd || Object.values(filters.metadata).some(Boolean));
}

export interface DateRange {
  start: Date;
  end: Date;
}

/** 'today' or 'tomorrow' as the seller-timezone day: [local midnight, next local midnight). */
export function dateFilterRange(date: DateFilter, now: Date, timeZone: string): DateRange {
  const today = venueDate(now, timeZone);
  const day = date === 'today' ? today : addDays(today, 1);
  return { start: startOfVenueDay(day, timeZone), end: startOfVenueDay(addDays(day, 1), timeZone) };
}

/** Query parameters of GET events/available for a set of filters (spec section 7 and the API contract). */
export function availableEventsParams(filters: EventFilters, now: Date, timeZone: string, member = false): Record<string, string> {
  const params: Record<string, string> = {};
  // Members-only events are listed for a current member (spec section 6); everyone else sees the public ones.
  if (member) params['hidden_type._in'] = 'public_browsable,public_member_only';
  if (filters.category) params.category = filters.category;
  if (filters.date) {
    const range = dateFilterRange(filters.date, now, timeZone);
    params['start_datetime._gte'] = range.start.toISOString();
    params['start_datetime._lt'] = range.end.toISOString();
  }
  if (filters.timeStart) params['time.start'] = filters.timeStart;
  if (filters.timeEnd) params['time.end'] = filters.timeEnd;
  for (const [key, value] of Object.entries(filters.metadata)) {
    if (value) params[METADATA_PREFIX + key] = value;
  }
  return params;
}

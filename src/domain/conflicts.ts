/**
 * Conflict avoidance (spec sections 1 and 9, issue 16): a session that overlaps a session already in the cart cannot
 * be added. Each visit occupies its session's time widened by the time to arrive before it (pad_pre_start) and to
 * leave after it (pad_post_end), in minutes: the event's meta gives its own, else the seller's
 * conflict_avoidance defaults (5 and 5). Visits of the excluded categories (admission, say, which lasts all day)
 * never conflict. The server refuses with session_conflict; the storefront disables the session with the reason.
 */

export const DEFAULT_CONFLICT_PAD_MINUTES = 5;

export interface ConflictRules {
  enabled: boolean;
  excludeCategories: readonly string[];
  padPreMinutes: number;
  padPostMinutes: number;
}

/** One visit: a session with its event's category and meta (pad_pre_start, pad_post_end). */
export interface TimedVisit {
  sessionId: string;
  start: string | Date;
  /** a session without an end occupies its start only (plus the pads) */
  end: string | Date | null;
  category: string;
  meta?: Record<string, unknown> | null;
}

const minutes = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;

/** The rules from the seller config's conflict_avoidance entry (off when absent). */
export function conflictRules(config: unknown): ConflictRules {
  const entry = (config && typeof config === 'object' ? (config as { conflict_avoidance?: unknown }).conflict_avoidance : null) as {
    enabled?: unknown;
    exclude_categories?: unknown;
    pad_pre_start_minutes?: unknown;
    pad_post_end_minutes?: unknown;
  } | null;
  return {
    enabled: entry?.enabled === true,
    excludeCategories: Array.isArray(entry?.exclude_categories) ? entry.exclude_categories.filter((c) => typeof c === 'string') : [],
    padPreMinutes: minutes(entry?.pad_pre_start_minutes, DEFAULT_CONFLICT_PAD_MINUTES),
    padPostMinutes: minutes(entry?.pad_post_end_minutes, DEFAULT_CONFLICT_PAD_MINUTES),
  };
}

/** The time a visit occupies, in epoch ms: [start - pad before, end + pad after). */
export function occupied(visit: TimedVisit, rules: ConflictRules): [number, number] {
  const start = new Date(visit.start).getTime();
  const end = visit.end === null ? start : Math.max(start, new Date(visit.end).getTime());
  const pre = minutes(visit.meta?.pad_pre_start, rules.padPreMinutes);
  const post = minutes(visit.meta?.pad_post_end, rules.padPostMinutes);
  return [start - pre * 60_000, end + post * 60_000];
}

/**
 * The visit in `others` that `candidate` overlaps, or null. More tickets for the same session are no conflict,
 * nor is anything when the rules are off or either visit's category is excluded.
 */
export function findConflict<V extends TimedVisit>(candidate: TimedVisit, others: readonly V[], rules: ConflictRules): V | null {
  if (!rules.enabled || rules.excludeCategories.includes(candidate.category)) return null;
  const [from, to] = occupied(candidate, rules);
  for (const other of others) {
    if (other.sessionId === candidate.sessionId || rules.excludeCategories.includes(other.category)) continue;
    const [otherFrom, otherTo] = occupied(other, rules);
    if (from < otherTo && otherFrom < to) return other;
  }
  return null;
}

/** The visits a cart holds (its items with a session), as the cart's answer describes them. */
export function cartVisits(
  items: ReadonlyArray<{
    name: string;
    event_session_id: string | null;
    start_datetime: string | null;
    end_datetime: string | null;
    category: string;
    pad_pre_start: number | null;
    pad_post_end: number | null;
  }>,
): Array<TimedVisit & { name: string; start: string }> {
  return items.flatMap((item) =>
    item.event_session_id && item.start_datetime
      ? [
          {
            sessionId: item.event_session_id,
            name: item.name,
            start: item.start_datetime,
            end: item.end_datetime,
            category: item.category,
            meta: { pad_pre_start: item.pad_pre_start, pad_post_end: item.pad_post_end },
          },
        ]
      : [],
  );
}

import { venueDate as localDate, zonedTime } from '../../src/domain/dates';
import { expandSchedule, resolveDate, type SessionSlot } from '../../src/domain/schedule';
import { parseMoney } from '../../src/domain/money';
import { IssueList } from './errors';
import { expandSeatMap, type PlannedSeat, type SectionGeometry } from './seats';
import type { CatalogEvent, SellerFolder } from './types';

/** Upper bound of sessions one event may expand to; a typo in a date range should not write a million rows. */
export const MAX_SESSIONS_PER_EVENT = 50_000;

export interface PlannedSession extends SessionSlot {
  capacity: number;
  oversell: number;
  /** minor units (the schedule's price_increase) */
  priceIncrease: number;
}
export interface PlannedEvent {
  source: CatalogEvent;
  rank: number;
  timezone: string;
  sessions: PlannedSession[];
}
export interface PlannedSeatMap {
  key: string;
  seats: PlannedSeat[];
  geometry: { sections: SectionGeometry[] };
}

/** What the writer needs beyond the catalogue itself: sessions, seats and the clock-dependent dates. */
export interface Plan {
  timezone: string;
  events: PlannedEvent[];
  seatMaps: PlannedSeatMap[];
  /** Resolves a catalogue date ('+0d', '2026-05-01', or a date-time) to an instant in the seller timezone. */
  instant(value: string | undefined): Date | null;
  /** Resolves an ISO date or relative day to an ISO date in a timezone (message rule date intervals). */
  localDay(value: string, timeZone: string): string;
}

export const money = (value: string): number => {
  const minor = parseMoney(value);
  if (minor === null) throw new Error(`not a money amount: ${value}`);
  return minor;
};

/** An ISO date or relative day -> midnight starting that day in the timezone; a date-time stays as it is. */
export function resolveInstant(value: string, timeZone: string, now: Date): Date {
  if (/T/.test(value)) return new Date(value);
  return zonedTime(resolveDate(value, now, timeZone), '00:00', timeZone);
}

function sessionsOf(ev: CatalogEvent, timezone: string, now: Date, base: string, issues: IssueList): PlannedSession[] {
  const byStart = new Map<number, PlannedSession>();
  (ev.schedules ?? []).forEach((schedule, si) => {
    let slots: SessionSlot[];
    try {
      slots = expandSchedule(schedule, timezone, now);
    } catch (err) {
      issues.add('catalog.json', `${base}/schedules/${si}`, (err as Error).message);
      return;
    }
    if (slots.length === 0)
      issues.add(
        'catalog.json',
        `${base}/schedules/${si}`,
        `expands to no sessions (dates ${schedule.dates.from} to ${schedule.dates.to} from ${localDate(now, timezone)})`,
      );
    // A later schedule overrides an earlier one at the same start (e.g. a holiday with other capacity).
    const priceIncrease = schedule.price_increase ? money(schedule.price_increase) : 0;
    for (const s of slots)
      byStart.set(s.start.getTime(), { ...s, capacity: schedule.capacity ?? -1, oversell: schedule.oversell ?? 0, priceIncrease });
  });
  if (byStart.size > MAX_SESSIONS_PER_EVENT)
    issues.add('catalog.json', `${base}/schedules`, `expands to ${byStart.size} sessions; the limit is ${MAX_SESSIONS_PER_EVENT}`);
  return [...byStart.values()].sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** Expands schedules and seat maps and fixes the clock; throws CatalogError for schedules that cannot expand. */
export function planSellerFolder(folder: SellerFolder, now: Date): Plan {
  const issues = new IssueList();
  const timezone: string = folder.config.timezone;
  const venueZone = new Map(folder.catalog.venues.map((v) => [v.key, v.timezone]));
  const events = folder.catalog.events.map((ev, i) => {
    const tz = (ev.venue && venueZone.get(ev.venue)) || timezone;
    return { source: ev, rank: i, timezone: tz, sessions: sessionsOf(ev, tz, now, `/events/${i}`, issues) };
  });
  const seatMaps = (folder.catalog.seat_maps ?? []).map((m) => ({ key: m.key, ...expandSeatMap(m) }));
  const dateIssues = (value: string | undefined, path: string) => {
    if (!value) return;
    try {
      resolveInstant(value, timezone, now);
    } catch (err) {
      issues.add('catalog.json', path, (err as Error).message);
    }
  };
  folder.catalog.cart_mods?.forEach((m, mi) =>
    m.codes?.forEach((c, ci) => {
      dateIssues(c.valid_from, `/cart_mods/${mi}/codes/${ci}/valid_from`);
      dateIssues(c.valid_to, `/cart_mods/${mi}/codes/${ci}/valid_to`);
    }),
  );
  folder.catalog.events.forEach((ev, ei) =>
    ev.ticket_groups.forEach((g, gi) => {
      for (const field of ['sales_start', 'sales_end', 'start_policy_date'] as const)
        dateIssues(g[field], `/events/${ei}/ticket_groups/${gi}/${field}`);
    }),
  );
  folder.catalog.members?.forEach((m, i) => {
    if (!m.membership) return;
    dateIssues(m.membership.valid_from, `/members/${i}/membership/valid_from`);
    dateIssues(m.membership.valid_to, `/members/${i}/membership/valid_to`);
  });
  issues.throwIfAny();
  return {
    timezone,
    events,
    seatMaps,
    instant: (value) => (value ? resolveInstant(value, timezone, now) : null),
    localDay: (value, tz) => resolveDate(value, now, tz),
  };
}

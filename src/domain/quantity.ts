import { parseMoney } from './money';
/**
 * Quantity stepper rules of spec section 5 (and the caps of section 9), for one ticket group of one
 * session (or of the flexible, any-date admission). Pure: the reservation store feeds it numbers.
 * -1 means unlimited, as everywhere in the capacity rules.
 */
import { PER_TYPE_CAP } from '../contract/limits';
import { minAvailable, UNLIMITED } from './availability';

export { PER_TYPE_CAP };

export interface GroupLimits {
  /** number of ticket types the shopper sees in the group */
  typeCount: number;
  min_tickets_per_order: number;
  /** 0 or below means no per-order maximum (as the reserve call treats it) */
  max_tickets_per_order: number;
  /** capacity + oversell - used for this group (and session), -1 unlimited */
  groupAvailable: number;
  /** the session's availableCapacity, -1 unlimited (flexible admission has no session: pass -1) */
  sessionAvailable: number;
}

/** The group minimum applies only when the group has one type and min_tickets_per_order is at least 1. */
export function effectiveMinimum(g: Pick<GroupLimits, 'typeCount' | 'min_tickets_per_order'>): number {
  return g.typeCount === 1 && g.min_tickets_per_order >= 1 ? g.min_tickets_per_order : 0;
}

/** Exactly one ticket is required: a one-type group whose minimum and maximum are both 1. */
export function exactlyOneRequired(g: Pick<GroupLimits, 'typeCount' | 'min_tickets_per_order' | 'max_tickets_per_order'>): boolean {
  return effectiveMinimum(g) === 1 && g.max_tickets_per_order === 1;
}

/** Group cap = min of max_tickets_per_order, group capacity + oversell - used, and session availableCapacity. */
export function groupCap(g: Pick<GroupLimits, 'max_tickets_per_order' | 'groupAvailable' | 'sessionAvailable'>): number {
  const perOrder = g.max_tickets_per_order > 0 ? g.max_tickets_per_order : UNLIMITED;
  return minAvailable(perOrder, g.groupAvailable, g.sessionAvailable);
}

/** Tickets still addable to the group given what is selected in it already (-1 unlimited). */
export function remainingInGroup(g: GroupLimits, selectedInGroup: number): number {
  const cap = groupCap(g);
  return cap < 0 ? UNLIMITED : cap - selectedInGroup;
}

/**
 * The count after pressing '+' on one type, or null when '+' is not allowed. Steps by 1, except that
 * the first press jumps to the group minimum; refused when remaining capacity is 0 or less, when the
 * jump would not fit, or at the per-type cap.
 */
export function incrementTo(g: GroupLimits, typeCount: number, selectedInGroup: number): number | null {
  const remaining = remainingInGroup(g, selectedInGroup);
  const unlimited = remaining === UNLIMITED && groupCap(g) === UNLIMITED;
  if (!unlimited && remaining <= 0) return null;
  const minimum = effectiveMinimum(g);
  const step = typeCount === 0 && minimum > 1 ? minimum : 1;
  if (!unlimited && step > remaining) return null;
  const next = typeCount + step;
  return next > PER_TYPE_CAP ? null : next;
}

/**
 * The count after pressing '-', or null when '-' is not allowed: nothing to remove, or exactly one
 * ticket is required. From the group minimum it goes straight to 0.
 */
export function decrementTo(g: GroupLimits, typeCount: number): number | null {
  if (typeCount <= 0) return null;
  if (exactlyOneRequired(g)) return null;
  const minimum = effectiveMinimum(g);
  return minimum > 0 && typeCount <= minimum ? 0 : typeCount - 1;
}

/** The quantity a type starts with: 1 when exactly one ticket is required (and it fits), else 0. */
export function initialQuantity(g: GroupLimits): number {
  if (!exactlyOneRequired(g)) return 0;
  return remainingInGroup(g, 0) === 0 ? 0 : 1;
}

/** Remaining capacity clamps a count that no longer fits (e.g. after availability shrank). */
export function clampToCap(g: GroupLimits, count: number): number {
  const cap = groupCap(g);
  const capped = cap < 0 ? count : Math.min(count, cap);
  return Math.max(0, Math.min(capped, PER_TYPE_CAP));
}

/** Which guard message stops a submit, in the order the shopper meets the steps; null means go. */
export type SelectionGuard = 'admissionType' | 'date' | 'session' | 'atLeastOneTicket';

export function selectionGuard(s: {
  /** both single-date and flexible admission are offered and neither is chosen */
  needsAdmissionChoice: boolean;
  mode: 'date' | 'flexible' | null;
  selectedDate: string | null;
  selectedSessionId: string | null;
  ticketCount: number;
}): SelectionGuard | null {
  if (s.needsAdmissionChoice && s.mode === null) return 'admissionType';
  if (s.mode === 'date' && !s.selectedDate) return 'date';
  if (s.mode === 'date' && !s.selectedSessionId) return 'session';
  if (s.ticketCount < 1) return 'atLeastOneTicket';
  return null;
}

/**
 * A flexible-price amount typed by the shopper, in minor units, or null when it is not a number with
 * at most two decimals (step 0.01) inside [min, max] ('Value entered is outside min/max').
 */
export function parseFlexibleAmount(input: string, minMinor: number, maxMinor: number): number | null {
  const text = input.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(minor) || minor < minMinor || minor > maxMinor) return null;
  return minor;
}

/** A wire money string ('24.00') in minor units; null when absent or malformed. */
/** A wire amount as minor units (signed: discounts may be negative); src/domain/money.ts is the one parser. */
export const moneyToMinor = (value: string | null | undefined): number | null => parseMoney(value, { allowNegative: true });

export interface ReserveLineInput {
  event_session_id: string | null;
  ticket_type_id: string;
  admit_name?: string;
  admit_email?: string;
  face_value?: string;
  /** a seated ticket's seat (seat_template_id of the seat map) */
  seat_id?: string;
  /** a CityPASS ticket's code */
  citypass_code?: string;
}

/**
 * One reservation line per ticket: `quantity` lines of the type, the i-th carrying the i-th admit details
 * when given, and the chosen amount of a flexible-price type.
 */
export function reserveLines(args: {
  sessionId: string | null;
  ticketTypeId: string;
  quantity: number;
  faceValue?: string;
  admit?: Array<{ admit_name?: string; admit_email?: string } | undefined>;
  /** CityPASS codes, the i-th for the i-th ticket */
  citypass?: string[];
}): ReserveLineInput[] {
  const lines: ReserveLineInput[] = [];
  for (let i = 0; i < args.quantity; i++) {
    const line: ReserveLineInput = { event_session_id: args.sessionId, ticket_type_id: args.ticketTypeId };
    const admit = args.admit?.[i];
    if (admit?.admit_name) line.admit_name = admit.admit_name;
    if (admit?.admit_email) line.admit_email = admit.admit_email;
    if (args.faceValue !== undefined) line.face_value = args.faceValue;
    const code = args.citypass?.[i];
    if (code) line.citypass_code = code;
    lines.push(line);
  }
  return lines;
}

/** What the limits of one group are built from (a ticket group row of the API, as numbers). */
export interface GroupFacts {
  min_tickets_per_order: number;
  max_tickets_per_order: number;
  available: boolean;
  available_capacity: number;
  exclude_from_event_capacity: boolean;
}

/**
 * Stepper limits of a group. The session's capacity is shared by the groups that count toward it, so
 * what the shopper picked in those other groups is taken off; flexible admission (no session) passes null.
 */
export function limitsForGroup(
  group: GroupFacts,
  typeCount: number,
  session: { available: number; pickedInOtherGroups: number } | null,
): GroupLimits {
  let sessionAvailable = UNLIMITED;
  if (session && !group.exclude_from_event_capacity && session.available >= 0) {
    sessionAvailable = Math.max(0, session.available - session.pickedInOtherGroups);
  }
  return {
    typeCount,
    min_tickets_per_order: group.min_tickets_per_order,
    max_tickets_per_order: group.max_tickets_per_order,
    groupAvailable: group.available ? group.available_capacity : 0,
    sessionAvailable,
  };
}

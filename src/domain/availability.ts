/**
 * Capacity rules of spec sections 5 and 9, shared by the API (sessions, calendar) and the storefront
 * (quantity steppers, labels). -1 means unlimited everywhere.
 */
export const UNLIMITED = -1;
export { PER_TYPE_CAP } from '../contract/limits';
/** Spec section 9: 'Hurry, less than 10 tickets available.' default threshold. */
export const FEW_TICKETS_THRESHOLD = 10;

export interface CapacityCounter {
  capacity: number;
  oversell_capacity: number;
  used_capacity: number;
}

/** capacity + oversell - used, never below 0; -1 when unlimited. */
export function availableCapacity(c: CapacityCounter): number {
  if (c.capacity < 0) return UNLIMITED;
  return Math.max(0, c.capacity + c.oversell_capacity - c.used_capacity);
}

export function isSoldOut(c: CapacityCounter): boolean {
  return availableCapacity(c) === 0;
}

/** The smallest of several availabilities, where -1 (unlimited) loses to any limit. */
export function minAvailable(...values: number[]): number {
  const limited = values.filter((v) => v >= 0);
  return limited.length ? Math.min(...limited) : UNLIMITED;
}

/** Adds availabilities (e.g. over a day's sessions); unlimited wins. */
export function sumAvailable(values: number[]): number {
  if (values.some((v) => v < 0)) return UNLIMITED;
  return values.reduce((a, b) => a + b, 0);
}

export function fits(quantity: number, available: number): boolean {
  return available < 0 || quantity <= available;
}

/** Spec section 5: group cap = min of max_tickets_per_order, group remaining and session availableCapacity. */
export function groupCap(maxTicketsPerOrder: number, groupAvailable: number, sessionAvailable: number): number {
  return minAvailable(maxTicketsPerOrder < 0 ? UNLIMITED : maxTicketsPerOrder, groupAvailable, sessionAvailable);
}

/** A group is on sale between sales_start and sales_end (either may be open). */
export function salesOpen(group: { sales_start: Date | string | null; sales_end: Date | string | null }, at: Date): boolean {
  const t = at.getTime();
  if (group.sales_start && new Date(group.sales_start).getTime() > t) return false;
  if (group.sales_end && new Date(group.sales_end).getTime() <= t) return false;
  return true;
}

/** Spec section 9: sold out, else the count if below the threshold, else available; empty with no threshold. */
export function availableLabel(available: number, threshold: number | null | undefined): 'sold_out' | 'available' | number | '' {
  if (available === 0) return 'sold_out';
  if (threshold === null || threshold === undefined) return '';
  if (available > 0 && available < threshold) return available;
  return 'available';
}

/** Spec section 5: the few-tickets warning shows when session availability is below the threshold. */
export function fewTicketsLeft(available: number, threshold: number = FEW_TICKETS_THRESHOLD): boolean {
  return available > 0 && available < threshold;
}

export interface GroupDemand {
  ticket_group_id: string;
  quantity: number;
  /** exclude_from_event_capacity groups do not take session capacity. */
  countsTowardSession: boolean;
}
export interface GroupSupply {
  available: number;
  max_tickets_per_order: number;
}

export type FitFailure =
  | { reason: 'max_tickets_per_order_exceeded'; ticket_group_id: string }
  | { reason: 'ticket_group_sold_out'; ticket_group_id: string }
  | { reason: 'ticket_group_capacity_exceeded'; ticket_group_id: string }
  | { reason: 'session_capacity_exceeded' };

/**
 * Whether the requested quantities fit one session: each group within its cap and per-order maximum,
 * and the session-counted total within the session's availableCapacity. null means they fit.
 */
export function quantitiesFit(demand: GroupDemand[], supply: Map<string, GroupSupply>, sessionAvailable: number): FitFailure | null {
  const perGroup = new Map<string, number>();
  let sessionTotal = 0;
  for (const d of demand) {
    perGroup.set(d.ticket_group_id, (perGroup.get(d.ticket_group_id) ?? 0) + d.quantity);
    if (d.countsTowardSession) sessionTotal += d.quantity;
  }
  for (const [groupId, quantity] of perGroup) {
    if (quantity <= 0) continue;
    const s = supply.get(groupId);
    if (!s || s.available === 0) return { reason: 'ticket_group_sold_out', ticket_group_id: groupId };
    if (s.max_tickets_per_order >= 0 && quantity > s.max_tickets_per_order) {
      return { reason: 'max_tickets_per_order_exceeded', ticket_group_id: groupId };
    }
    if (!fits(quantity, s.available)) return { reason: 'ticket_group_capacity_exceeded', ticket_group_id: groupId };
  }
  if (!fits(sessionTotal, sessionAvailable)) return { reason: 'session_capacity_exceeded' };
  return null;
}

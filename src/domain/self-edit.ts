import type { SelfEditReason } from '../contract/self-edit';
import { cardAmountSupported } from './checkout-rules';

/**
 * Spec section 5, free cancellation: the seller's self_edit_rules name the categories a visitor may change (groups
 * with handler tickets) and a horizon before the visit, in hours or days; a self-edit order can cancel only when
 * every ticket's face value is 0, and a cancelable ticket has adjusted value 0 and a session still beyond the horizon.
 * The server decides with this; the manage screen only shows what the server answered.
 */
export interface SelfEditRules {
  mode: 'off' | 'free_order_only' | 'edit_order';
  categories: string[];
  horizonHours: number | null;
  /** edit_order mode only: visitors may cancel paid tickets too, refunded to what paid for them (`cancel_paid_tickets`) */
  cancelPaid: boolean;
}

export interface SelfEditTicket {
  id: string;
  state: string;
  handler: string;
  category: string | null;
  faceValue: number;
  adjustedValue: number;
  /** the outside fees paid with it (fixed and percent), minor units */
  fees?: number;
  /** the session's start; null for any-date tickets (never cancelable by the visitor: no visit to be before) */
  start: Date | null;
  /** a member's benefit ticket (its membership): never moved by the visitor, whose benefits are counted per visit */
  membershipId?: string | null;
}

export interface SelfEditVerdict {
  cancelable: boolean;
  reason: SelfEditReason | null;
  cancelableIds: string[];
  /** each ticket's own reason, when it cannot be cancelled */
  refusals: Map<string, SelfEditReason>;
}

const MODES = new Set(['off', 'free_order_only', 'edit_order']);

/** The config's self_edit_rules as the rule reads them; horizon_hours wins over horizon_days. */
export function selfEditRules(config: unknown): SelfEditRules {
  const raw = (config ?? {}) as {
    mode?: unknown;
    categories?: unknown;
    horizon_hours?: unknown;
    horizon_days?: unknown;
    cancel_paid_tickets?: unknown;
  };
  const mode = typeof raw.mode === 'string' && MODES.has(raw.mode) ? (raw.mode as SelfEditRules['mode']) : 'off';
  const categories = Array.isArray(raw.categories) ? raw.categories.filter((c): c is string => typeof c === 'string') : [];
  const hours = Number.isInteger(raw.horizon_hours)
    ? (raw.horizon_hours as number)
    : Number.isInteger(raw.horizon_days)
      ? (raw.horizon_days as number) * 24
      : null;
  return { mode, categories, horizonHours: hours, cancelPaid: mode === 'edit_order' && raw.cancel_paid_tickets === true };
}

const LIVE = new Set(['booked']);

/** A ticket of a category the seller lets visitors change, sold per session (handler tickets). */
const selfEditable = (rules: SelfEditRules, t: SelfEditTicket) =>
  t.handler === 'tickets' && !!t.category && rules.categories.includes(t.category);
/** The visit is still beyond the horizon: self-service closes `horizonHours` before it starts. */
const beyondHorizon = (rules: SelfEditRules, t: SelfEditTicket, now: Date) =>
  !!t.start && t.start.getTime() > now.getTime() + (rules.horizonHours ?? 0) * 3_600_000;

/** The order's reason: the first that holds for a live ticket (a cancelled ticket says nothing about the others). */
const ORDER_REASONS: SelfEditReason[] = [
  'mode_off',
  'not_edit_mode',
  'not_free',
  'category',
  'member_benefit',
  'tickets_too_old',
  'ticket_state_incorrect',
];
function verdictOf(tickets: SelfEditTicket[], refusals: Map<string, SelfEditReason>): SelfEditVerdict {
  const cancelableIds = tickets.filter((t) => !refusals.has(t.id)).map((t) => t.id);
  const reasons = new Set(refusals.values());
  const reason = cancelableIds.length > 0 ? null : (ORDER_REASONS.find((r) => reasons.has(r)) ?? 'ticket_state_incorrect');
  return { cancelable: cancelableIds.length > 0, reason, cancelableIds, refusals };
}

/**
 * Which tickets of an order its visitor may cancel now, and why not when none. Free tickets always (a free order's);
 * paid ones only where the seller's edit_order rules let visitors cancel paid tickets (`cancel_paid_tickets`), which
 * refunds them.
 */
export function cancelVerdict(rules: SelfEditRules, tickets: SelfEditTicket[], now: Date): SelfEditVerdict {
  const refusals = new Map<string, SelfEditReason>();
  const orderFree = tickets.every((t) => t.faceValue === 0);
  for (const t of tickets) {
    if (rules.mode === 'off') refusals.set(t.id, 'mode_off');
    else if (!LIVE.has(t.state)) refusals.set(t.id, 'ticket_state_incorrect');
    else if ((!orderFree || t.adjustedValue !== 0) && !rules.cancelPaid) refusals.set(t.id, 'not_free');
    else if (!selfEditable(rules, t)) refusals.set(t.id, 'category');
    else if (!beyondHorizon(rules, t, now)) refusals.set(t.id, 'tickets_too_old');
  }
  return verdictOf(tickets, refusals);
}

/**
 * Which tickets of an order its visitor may move to another time of the same event (spec section 2: edit-order mode
 * only): booked, of a self-editable category, beyond the horizon, and not a member's benefit (the benefits are
 * counted per visit). Paid or free alike: a pricier time is paid for through the edit's checkout.
 */
export function rescheduleVerdict(rules: SelfEditRules, tickets: SelfEditTicket[], now: Date): SelfEditVerdict {
  const refusals = new Map<string, SelfEditReason>();
  for (const t of tickets) {
    if (rules.mode === 'off') refusals.set(t.id, 'mode_off');
    else if (rules.mode !== 'edit_order') refusals.set(t.id, 'not_edit_mode');
    else if (!LIVE.has(t.state)) refusals.set(t.id, 'ticket_state_incorrect');
    else if (!selfEditable(rules, t)) refusals.set(t.id, 'category');
    else if (t.membershipId) refusals.set(t.id, 'member_benefit');
    else if (!beyondHorizon(rules, t, now)) refusals.set(t.id, 'tickets_too_old');
  }
  return verdictOf(tickets, refusals);
}

/** What a visitor paid for a ticket and gets back when it is cancelled: its price after discounts, plus its fees. */
export const paidValue = (t: { adjustedValue: number; fees?: number }) => t.adjustedValue + (t.fees ?? 0);

/**
 * What a rescheduled ticket costs more (spec section 8's cost-increase warning): the new time's price increase over
 * the old one's, never less than nothing (a cheaper time keeps the price paid; nothing is refunded by a move). A
 * price the visitor chose (a flexible-price type) moves as it is. The server prices the new ticket with this, the
 * reschedule screen warns with it.
 */
export function rescheduleIncrease(oldIncrease: number, newIncrease: number, flexible = false): number {
  return flexible ? 0 : Math.max(0, newIncrease - oldIncrease);
}

/**
 * Spec section 4, confirming an edit: nothing outstanding checks out free; otherwise the checkout
 * (/manage/{orderId}/confirm) pays the difference when a card can take that amount; else 'Payment is not supported for
 * this amount.'
 */
export function editConfirmStep(outstanding: number, currency: string): 'free' | 'pay' | 'unsupported' {
  if (outstanding <= 0) return 'free';
  return cardAmountSupported(outstanding, currency) ? 'pay' : 'unsupported';
}

/** /manage/{orderId}/reschedule/{sessionId}: moving the tickets of the order's visit at that session (spec section 2). */
export const reschedulePath = (orderId: string, sessionId: string) =>
  `/manage/${encodeURIComponent(orderId)}/reschedule/${encodeURIComponent(sessionId)}`;
/** /manage/{orderId}/confirm: the checkout of an edit with something to pay (spec section 2). */
export const editConfirmPath = (orderId: string) => `/manage/${encodeURIComponent(orderId)}/confirm`;
export const managePathOf = (orderId: string) => `/manage/${encodeURIComponent(orderId)}`;

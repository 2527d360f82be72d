import type { SelfEditReason } from '../contract/self-edit';

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
}

export interface SelfEditTicket {
  id: string;
  state: string;
  handler: string;
  category: string | null;
  faceValue: number;
  adjustedValue: number;
  /** the session's start; null for any-date tickets (never cancelable by the visitor: no visit to be before) */
  start: Date | null;
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
  const raw = (config ?? {}) as { mode?: unknown; categories?: unknown; horizon_hours?: unknown; horizon_days?: unknown };
  const mode = typeof raw.mode === 'string' && MODES.has(raw.mode) ? (raw.mode as SelfEditRules['mode']) : 'off';
  const categories = Array.isArray(raw.categories) ? raw.categories.filter((c): c is string => typeof c === 'string') : [];
  const hours = Number.isInteger(raw.horizon_hours)
    ? (raw.horizon_hours as number)
    : Number.isInteger(raw.horizon_days)
      ? (raw.horizon_days as number) * 24
      : null;
  return { mode, categories, horizonHours: hours };
}

const LIVE = new Set(['booked']);

/** Which tickets of an order its visitor may cancel now, and why not when none. */
export function cancelVerdict(rules: SelfEditRules, tickets: SelfEditTicket[], now: Date): SelfEditVerdict {
  const refusals = new Map<string, SelfEditReason>();
  const closesAt = now.getTime() + (rules.horizonHours ?? 0) * 3_600_000;
  const orderFree = tickets.every((t) => t.faceValue === 0);
  for (const t of tickets) {
    if (rules.mode === 'off') refusals.set(t.id, 'mode_off');
    else if (!LIVE.has(t.state)) refusals.set(t.id, 'ticket_state_incorrect');
    else if (!orderFree || t.adjustedValue !== 0) refusals.set(t.id, 'not_free');
    else if (t.handler !== 'tickets' || !t.category || !rules.categories.includes(t.category)) refusals.set(t.id, 'category');
    else if (!t.start || t.start.getTime() <= closesAt) refusals.set(t.id, 'tickets_too_old');
  }
  const cancelableIds = tickets.filter((t) => !refusals.has(t.id)).map((t) => t.id);
  // The order's reason: the first that holds for a live ticket (a cancelled ticket says nothing about the others).
  const order: SelfEditReason[] = ['mode_off', 'not_free', 'category', 'tickets_too_old', 'ticket_state_incorrect'];
  const reasons = new Set(refusals.values());
  const reason = cancelableIds.length > 0 ? null : (order.find((r) => reasons.has(r)) ?? 'ticket_state_incorrect');
  return { cancelable: cancelableIds.length > 0, reason, cancelableIds, refusals };
}

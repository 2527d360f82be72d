/**
 * Pure cart rules shared by the server (pricing, totals, quantity checks) and the storefront (timer,
 * local expiry, name split). Money is integer minor units; no I/O, no React.
 */

/** Spec section 9 constants. */
export { CART_FETCH_LIMIT, PER_TYPE_CAP } from '../contract/limits';
export const CART_RELOAD_THRESHOLD_SECONDS = 30;
export const EXPIRY_MARGIN_SECONDS = 5;
export const EXTENSION_SECONDS = 120;
export const EXTEND_MODAL_THRESHOLD_SECONDS = 60;
export const TIMER_VISIBLE_UNDER_SECONDS = 20 * 60;
export const TIMER_TIERS = { info: 300, warning: 120, critical: 30 } as const;
export const DEFAULT_HOLD_SECONDS = 900;

export interface OutsideFee {
  name: string;
  fixed?: number;
  percent?: number;
}

/** One priced ticket line: the value charged before fees and the seller's outside fees. */
export interface PricedLine {
  adjusted_value: number;
  fee_fixed: number;
  fee_percent: number;
}

/**
 * Outside fees of one ticket: fixed amounts plus percentages of the ticket's value. `percent` is a
 * percentage (2.5 means 2.5 %); the percent part is rounded half up to a whole minor unit per ticket so
 * a ticket's fee never changes with the number of tickets in the cart.
 */
export function outsideFees(value: number, fees: OutsideFee[] | null | undefined): { fixed: number; percent: number } {
  let fixed = 0;
  let percent = 0;
  for (const fee of fees ?? []) {
    fixed += Math.max(0, Math.round(fee.fixed ?? 0));
    percent += Math.max(0, Math.round((value * (fee.percent ?? 0)) / 100));
  }
  return { fixed, percent };
}

export interface GrandTotals {
  total_before_cartmod_price: number;
  total_fee_fixed_outside: number;
  total_fee_percent_outside: number;
  total_cartmod_amount: number;
  total_payments: number;
  total_outstanding: number;
}

/** Totals of a cart (spec section 3 grand_totals); outstanding = amount due minus payments, floored at 0. */
export function grandTotals(lines: PricedLine[], payments = 0, cartmodAmount = 0): GrandTotals {
  const before = lines.reduce((s, l) => s + l.adjusted_value, 0);
  const fixed = lines.reduce((s, l) => s + l.fee_fixed, 0);
  const percent = lines.reduce((s, l) => s + l.fee_percent, 0);
  const due = Math.max(0, before - cartmodAmount) + fixed + percent;
  return {
    total_before_cartmod_price: before,
    total_fee_fixed_outside: fixed,
    total_fee_percent_outside: percent,
    total_cartmod_amount: cartmodAmount,
    total_payments: payments,
    total_outstanding: outstanding(due, payments),
  };
}

/** Outstanding = amount due minus what is already paid (or covered by gift cards), never below 0. */
export function outstanding(amountDue: number, paid: number): number {
  return Math.max(0, amountDue - paid);
}

/** Price of a ticket type for a session: the flexible amount within bounds, else the list price. */
export interface PriceableType {
  price: number;
  price_min: number | null;
  price_max: number | null;
  discounted_price: number | null;
}

export function isFlexiblePrice(t: PriceableType): boolean {
  return t.price_min !== null && t.price_max !== null;
}

/** 'Value entered is outside min/max' when false. */
export function withinFlexibleBounds(t: PriceableType, amount: number): boolean {
  return isFlexiblePrice(t) && Number.isInteger(amount) && amount >= t.price_min! && amount <= t.price_max!;
}

/** face_value is the list price (plus the session's price increase); adjusted_value is what is charged. */
export function ticketPrice(
  t: PriceableType,
  priceIncrease: number,
  flexibleAmount?: number,
): { face_value: number; adjusted_value: number } {
  if (isFlexiblePrice(t)) {
    const amount = flexibleAmount ?? t.price;
    return { face_value: amount, adjusted_value: amount };
  }
  const face = t.price + priceIncrease;
  const adjusted = t.discounted_price !== null ? Math.min(face, t.discounted_price + priceIncrease) : face;
  return { face_value: face, adjusted_value: adjusted };
}

/**
 * Quantity rules per ticket group for one session of an order: a group with tickets needs at least
 * min_tickets_per_order and at most max_tickets_per_order (-1 or 0 unlimited). Returns the spec's code.
 */
export function groupQuantityError(
  count: number,
  min: number,
  max: number,
): 'min_tickets_per_order_not_met' | 'max_tickets_per_order_exceeded' | null {
  if (count <= 0) return null;
  if (max > 0 && count > max) return 'max_tickets_per_order_exceeded';
  if (min > 0 && count < min) return 'min_tickets_per_order_not_met';
  return null;
}

/** Name split (spec section 5): trimmed, last word is the last name, the rest the first; one word is both. */
export function splitName(input: string): { first_name: string; last_name: string } {
  const words = (input ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw new Error('Input must not be empty.');
  if (words.length === 1) return { first_name: words[0], last_name: words[0] };
  return { first_name: words.slice(0, -1).join(' '), last_name: words[words.length - 1] };
}

export type TimerTier = 'hidden' | 'info' | 'warning' | 'error' | 'critical';

/**
 * Expiry timer tier (spec sections 4 and 9): hidden from 20 minutes up; info above 300 s, warning from
 * 120 to 300 s, error below 120 s; the 30 s tier exists only with the extend-timer flag.
 */
export function timerTier(secondsLeft: number, extendTimer = false): TimerTier {
  if (secondsLeft >= TIMER_VISIBLE_UNDER_SECONDS) return 'hidden';
  if (secondsLeft > TIMER_TIERS.info) return 'info';
  if (secondsLeft >= TIMER_TIERS.warning) return 'warning';
  if (extendTimer && secondsLeft < TIMER_TIERS.critical) return 'critical';
  return 'error';
}

/** Local expiry = server expires_in minus the 5 s margin, counted from when the response arrived. */
export function localExpiry(expiresInSeconds: number, receivedAtMs: number): number {
  return receivedAtMs + (expiresInSeconds - EXPIRY_MARGIN_SECONDS) * 1000;
}

export function isLocallyExpired(localExpiryMs: number, nowMs: number): boolean {
  return localExpiryMs < nowMs;
}

/** The extend modal shows at 60 s or less, unless the shopper declined or the one extension is used. */
export function shouldOfferExtension(secondsLeft: number, declined: boolean, alreadyExtended: boolean): boolean {
  return secondsLeft <= EXTEND_MODAL_THRESHOLD_SECONDS && secondsLeft > 0 && !declined && !alreadyExtended;
}

/** Seconds until expiry as the API reports it (never negative, whole seconds). */
export function expiresIn(expiresAt: Date | null, now: Date): number | null {
  if (!expiresAt) return null;
  return Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 1000));
}

/** 'mm:ss' of the expiry timer. */
export function clockText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

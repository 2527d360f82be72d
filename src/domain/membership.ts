/**
 * Membership rules shared by the server and the storefront (issue 12; spec sections 4, 5, 9): the seller's
 * membership settings, the renewal window, member benefits with their shared wildcard pool, gift code states.
 */

/** One benefit of a level: tickets of a type (or '*', the shared pool) per visit, at a member price (minor units) if set. */
export interface Benefit {
  ticket_type_id: string;
  quantity: number;
  price?: number | null;
}

export type ReserveBeyondTerm = 'always' | 'if_autorenew' | 'never';

export interface MemberSettings {
  askToAutorenew: boolean;
  /** how many days before a term ends its renewal may be bought */
  renewalPeriodDays: number;
  /** member tickets for a visit after the term ends: always, only with auto-renew scheduled, or never */
  reserveBeyondTerm: ReserveBeyondTerm;
  skipUpsell: boolean;
}

export const DEFAULT_RENEWAL_PERIOD_DAYS = 60;

export function memberSettings(config: { membership?: Record<string, unknown> } | null | undefined): MemberSettings {
  const m = (config?.membership ?? {}) as Record<string, unknown>;
  const days = Number(m.renewal_period_days);
  const beyond = m.member_reserve_beyond_term;
  return {
    askToAutorenew: m.ask_to_autorenew === true,
    renewalPeriodDays: Number.isFinite(days) && days >= 0 ? days : DEFAULT_RENEWAL_PERIOD_DAYS,
    reserveBeyondTerm: beyond === 'always' || beyond === 'if_autorenew' ? beyond : 'never',
    skipUpsell: m.skip_upsell === true,
  };
}

/** The first instant a term ending at `validTo` may be renewed (spec section 5: within the period before its end). */
export function renewalOpensAt(validTo: Date, periodDays: number): Date {
  return new Date(validTo.getTime() - periodDays * 86_400_000);
}

/** A new term of `months` from `from`, month-end aware (31 January + 1 month is 28 or 29 February). */
export function termEnd(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * How many member tickets of each benefit type a member may still take for one visit, given what is used: each type's
 * own quantity first, then the shared wildcard pool, all within the level's per-event limit (negative: none).
 */
export function benefitsRemaining(benefits: Benefit[], used: Record<string, number>, eventLimit: number): Record<string, number> {
  const pool = benefits.filter((b) => b.ticket_type_id === '*').reduce((n, b) => n + b.quantity, 0);
  let poolUsed = 0;
  let total = 0;
  for (const b of benefits) {
    if (b.ticket_type_id === '*') continue;
    const n = used[b.ticket_type_id] ?? 0;
    total += n;
    poolUsed += Math.max(0, n - b.quantity);
  }
  const poolLeft = Math.max(0, pool - poolUsed);
  const eventLeft = eventLimit >= 0 ? Math.max(0, eventLimit - total) : Infinity;
  const out: Record<string, number> = {};
  for (const b of benefits) {
    if (b.ticket_type_id === '*') continue;
    const own = Math.max(0, b.quantity - (used[b.ticket_type_id] ?? 0));
    out[b.ticket_type_id] = Math.min(own + poolLeft, eventLeft);
  }
  return out;
}

export type GiftCodeState = 'valid' | 'expired' | 'exhausted';

/** Spec section 4: expired before valid_from or after valid_to; exhausted once redeemed. */
export function giftCodeState(code: { valid_from: string | Date; valid_to: string | Date; exhausted: boolean }, now: Date): GiftCodeState {
  if (code.exhausted) return 'exhausted';
  const t = now.getTime();
  return t < new Date(code.valid_from).getTime() || t > new Date(code.valid_to).getTime() ? 'expired' : 'valid';
}

/** The spec's gift code: exactly 10 characters. */
export const GIFT_CODE_LENGTH = 10;
export const isGiftCodeShape = (code: string) => code.trim().length === GIFT_CODE_LENGTH;

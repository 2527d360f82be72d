import type { ErrorCode } from '../contract/errors';
import { ERROR_MESSAGES, errorMessageKey } from './error-messages';
/**
 * The one table that turns an error of the reserve call (spec section 8, "Reserve") into an i18n key.
 * event_session_sold_out is not here: the reservation flow handles it (reload sessions or the calendar,
 * spec section 4) and words it with reserve.soldOut.session / reserve.soldOut.date.
 */
export interface ReserveErrorLike {
  status: number;
  _code: string;
  _context?: string;
  _extra?: Record<string, unknown>;
}

export interface ReserveErrorMessage {
  /** i18n key */
  key: string;
  /** interpolation values */
  params?: Record<string, string | number>;
}

export const SESSION_SOLD_OUT = 'event_session_sold_out';

/** The codes spec section 8 expects from a reservation, worded by the one table (error-messages.ts); in a reservation
 *  code_exhausted is a used-up CityPASS code. */
const RESERVE_CODES: readonly ErrorCode[] = [
  'max_tickets_per_order_exceeded',
  'min_tickets_per_order_not_met',
  'member_limit_exceeded',
  'membership_ends_before_visit',
  'ticket_group_capacity_exceeded',
  'ticket_group_sold_out',
  'session_capacity_exceeded',
  'invalid_citypass',
  'citypass_failure',
  'additional_info_validation_failed',
  'cart_expired',
  'event_session_not_found',
  'ticket_type_not_found',
];
export const RESERVE_ERROR_KEYS: Readonly<Partial<Record<ErrorCode, string>>> = {
  ...Object.fromEntries(RESERVE_CODES.map((code) => [code, ERROR_MESSAGES[code]])),
  code_exhausted: 'reserve.errors.citypassUsed',
};

/** Where a message should come from for an error of the reserve call. */
export function reserveErrorMessage(error: ReserveErrorLike): ReserveErrorMessage {
  const extra = error._extra ?? {};
  if (error._code === 'rule_blocks_reserve') {
    // A checkout rule wants a promo code first (block_reason code_required); other rules say why themselves.
    if (extra.block_reason === 'code_required') return { key: 'reserve.errors.codeRequired' };
    if (extra.block_reason === 'membership_required') return { key: 'reserve.errors.membersOnly' };
    // A seller's checkout rule may carry its own message (seller text, like a content block); else the generic one.
    return typeof extra.message === 'string' && extra.message
      ? { key: 'reserve.errors.described', params: { description: extra.message } }
      : { key: 'reserve.errors.ruleBlocks' };
  }
  if (error._code === 'validation_failed' && error._context === 'event_calendar') return { key: 'reserve.errors.tooManyTypes' };
  // Upsell chains (issue 16): as many tickets as the visit's admission holds, named when the server says how many.
  if (
    error._code === 'tickets_must_match_anchor_tickets' &&
    Array.isArray(extra.anchor_counts) &&
    typeof extra.anchor_counts[0] === 'number'
  )
    return { key: 'reserve.errors.ticketsMustMatchCount', params: { count: extra.anchor_counts[0] } };
  const key = RESERVE_ERROR_KEYS[error._code as ErrorCode];
  if (key) {
    const params: Record<string, string | number> = {};
    for (const name of ['max', 'min', 'count']) if (typeof extra[name] === 'number') params[name] = extra[name] as number;
    // A used CityPASS code is named, so a visitor with several codes knows which one to check.
    if (Array.isArray(extra.codes)) params.codes = extra.codes.filter((c) => typeof c === 'string').join(', ');
    return { key, params };
  }
  // Other 4xx: the code's message from the one table (the API sends no text of its own), else the generic sentence.
  if (error.status >= 400 && error.status < 500) return { key: errorMessageKey(error) };
  return { key: 'app.unexpectedError' };
}

import { Type, type Static } from 'typebox';

/**
 * Every `_code` the API answers with (spec section 8 and the API's own), with the HTTP status it comes with.
 * The server maps a domain error to its status through this table, the storefront's message tables are keyed by
 * the same union: a code added here without a status, or without a message where the storefront needs one, fails
 * the type-check.
 */
export const ERROR_STATUS = {
  // Input
  bad_request: 400,
  validation_failed: 400,
  validate_not_email: 400,
  validate_failed: 400,
  additional_info_validation_failed: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  uri_too_long: 414,
  // Catalogue
  not_found: 404,
  seller_not_found: 404,
  event_not_found: 404,
  event_session_not_found: 404,
  ticket_group_not_found: 404,
  ticket_type_not_found: 404,
  image_not_found: 404,
  form_not_found: 404,
  // Reserve (spec section 8, "Reserve")
  max_tickets_per_order_exceeded: 400,
  min_tickets_per_order_not_met: 400,
  rule_blocks_reserve: 403,
  event_session_sold_out: 409,
  ticket_group_sold_out: 409,
  ticket_group_capacity_exceeded: 409,
  session_capacity_exceeded: 409,
  seat_unavailable: 409,
  /** conflict avoidance (issue 16): the session overlaps, padded, another session in the cart */
  session_conflict: 409,
  /** upsell chains (issue 16): an add-on sold only after an anchor, with no anchor it follows in the cart fitting the
   *  seller's visit_time (`_extra.event_template_id`, `event_session_id`, `visit_time`) */
  anchor_required: 409,
  /** an add-on whose tickets must match its anchor's in number (`_extra.count`, `anchor_counts`) */
  tickets_must_match_anchor_tickets: 409,
  /** spec section 5: 'seat choice required for seated groups' */
  seat_required: 400,
  member_limit_exceeded: 409,
  /** a member's visit after the membership ends, where the seller's member_reserve_beyond_term refuses it */
  membership_ends_before_visit: 403,
  /** a renewal asked for before the seller's renewal period; `_extra.renew_from` says when it opens */
  renewal_not_open: 409,
  // Memberships: gifts and auto-renew
  gift_to_self: 400,
  gift_code_expired: 410,
  gift_code_exhausted: 409,
  auto_renew_not_scheduled: 409,
  /** a saved card that is not the logged-in user's (or no longer there) */
  payment_method_not_found: 404,
  /** a CityPASS code missing, or not of the adult or child form the event's config gives (field add.{i}.citypass_code) */
  invalid_citypass: 400,
  /** a CityPASS or promo code already used up (a CityPASS code: _extra.codes, the codes another live ticket holds) */
  code_exhausted: 409,
  /** the event sells CityPASS tickets but its codes cannot be checked (no usable pattern in its config) */
  citypass_failure: 422,
  // Promo codes (issue 13)
  code_not_found: 404,
  /** the code discounts nothing in the cart (apply_code with require_benefit) */
  no_code_benefit: 409,
  duplicate_code: 409,
  // Gift cards (issue 13)
  /** no active card of that number at this seller */
  gift_card_not_found: 404,
  /** the card holds nothing (spec: 'Gift Card balance is $0') */
  gift_card_empty: 409,
  /** the card already pays part of this cart (spec: 'Oops! You already applied this gift card') */
  gift_card_applied: 409,
  /** the card holds less than the amount asked of it (another payment took from it meanwhile); `_extra.balance` */
  gift_card_balance_insufficient: 409,
  /** a checkout rule wants a code first (`_extra.block_reason` code_required, `_extra.cart_mod_id`) */
  rule_blocks_checkout: 403,
  // Cart
  cart_access_denied: 403,
  cart_expired: 410,
  cart_booked: 409,
  cart_not_pending: 409,
  cart_checkout_in_progress: 409,
  cart_extension_used: 409,
  cart_empty: 400,
  /** card payments were taken on the cart (a payment plan): it cannot be emptied or cut below them here */
  cart_has_payments: 409,
  /** One visitor, or one network address, holds as many tickets of a session as the seller allows. */
  hold_limit_exceeded: 409,
  ticket_not_found: 404,
  // Order self-service (issue 17)
  /** the ticket is not in a state the change needs (already cancelled, redeemed) */
  ticket_state_incorrect: 409,
  /** the session is too near (or past): the seller's self_edit_rules horizon has closed */
  tickets_too_old: 409,
  /** the seller's self_edit_rules do not let the visitor change this order (paid, its category, logged in, off) */
  order_not_self_editable: 403,
  /** the seller has no credentials for that wallet (WALLET_CONFIG): its pass links are not offered */
  wallet_not_configured: 404,
  // Checkout and payment
  /** the seller asks guests for a captcha (issue 14) and the checkout carries no token (`_extra.provider`) */
  captcha_required: 400,
  /** the token is forged, of another seller or provider, or its challenge expired (`_extra.reason` invalid | expired) */
  captcha_invalid: 400,
  /** the token's solution paid for a checkout already: one use each */
  captcha_reused: 409,
  /** the seller asks for a captcha this server cannot check (ALTCHA_HMAC_KEY unset): guest checkouts stop */
  captcha_unavailable: 503,
  payment_not_supported: 400,
  payment_amount_incorrect: 400,
  gateway_not_found: 400,
  intent_requires_action: 402,
  card_declined: 402,
  incorrect_cvc: 402,
  invalid_cvc: 402,
  incorrect_number: 402,
  invalid_expiry_month: 402,
  invalid_expiry_year: 402,
  expired_card: 402,
  payment_intent_authentication_failure: 402,
  payment_intent_amount_mismatch: 402,
  incorrect_zip: 402,
  /** the provider refused the payment for a reason the storefront does not word itself (its message says why) */
  payment_failed: 402,
  /** POST stripe/webhook: a missing, wrong or stale signature */
  webhook_signature_invalid: 400,
  /** The charge was taken but the order could not be booked, so it was given back. */
  payment_refunded: 409,
  // Accounts and login
  csrf_header_missing: 403,
  login_disabled: 403,
  identity_access_denied: 403,
  not_authenticated: 401,
  not_authorized: 401,
  invalid_credentials: 401,
  incorrect_password: 401,
  guest_account: 401,
  otp_incorrect: 401,
  otp_token_expired: 401,
  email_in_use: 409,
  unknown_auth_method: 400,
  external_login_required: 400,
  external_login_url_missing: 400,
  rate_limited: 429,
  /** a member of staff looking through a preview (issue 18): nothing is changed, bought or booked in preview */
  preview_read_only: 403,
  // Address lookup (issue 22): the storefront switches to manual entry on either
  /** the provider refused, answered something else, or did not answer in time (its words stay in the server) */
  address_lookup_failed: 502,
  /** no provider is configured, or the seller switched the lookup off: a lasting state, not a fault, so a 4xx (no request
   *  the API is sent makes it answer a 5xx of its own: tests/api/property.test.ts) */
  address_lookup_unavailable: 404,
  // A bug: details stay in the server's log.
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** One refusal: the first `_data` item is the one the storefront reads. */
export const ErrorItem = Type.Object(
  {
    _code: Type.Unsafe<ErrorCode>({ type: 'string', enum: ERROR_CODES }),
    _context: Type.Optional(Type.String()),
    /** Facts about the refusal: the field, the limit, the ids involved; never personal data. */
    _extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

export const ErrorBody = Type.Object({ _data: Type.Array(ErrorItem, { minItems: 1 }) }, { additionalProperties: false, $id: 'ErrorBody' });
export type ErrorBody = Static<typeof ErrorBody>;

/** A refusal as the storefront holds it (src/api/errors.ts ApiError): the HTTP status and the first `_data` item. */
export interface Refusal {
  status: number;
  _code: string;
  _context?: string;
  _extra?: Record<string, unknown>;
}

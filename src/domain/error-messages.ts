import type { ErrorCode, Refusal } from '../contract/errors';

/**
 * The storefront's one table from a refusal's `_code` to the message a shopper reads (spec section 8), keyed by the
 * contract's code union: a code the API may answer with and no message here fails the type-check. The values are
 * i18n keys (locales/en/translation.json, overridable per seller). A flow may say a refusal more precisely in its
 * context (the reservation flow's table in reservation-errors.ts, the checkout's classification in checkout-rules.ts);
 * this table is what every other place shows.
 */
export const ERROR_MESSAGES = {
  bad_request: 'errors.unexpected',
  validation_failed: 'errors.validationFailed',
  validate_not_email: 'errors.emailInvalid',
  validate_failed: 'errors.resetLinkInvalid',
  additional_info_validation_failed: 'reserve.errors.survey',
  payload_too_large: 'errors.unexpected',
  unsupported_media_type: 'errors.unexpected',
  uri_too_long: 'errors.unexpected',
  not_found: 'errors.notFound',
  seller_not_found: 'errors.notFound',
  event_not_found: 'errors.notFound',
  event_session_not_found: 'reserve.errors.sessionNotFound',
  ticket_group_not_found: 'reserve.errors.ticketTypesNotFound',
  ticket_type_not_found: 'reserve.errors.ticketTypesNotFound',
  image_not_found: 'errors.notFound',
  form_not_found: 'errors.unexpected',
  max_tickets_per_order_exceeded: 'reserve.errors.maxTicketsPerOrder',
  min_tickets_per_order_not_met: 'reserve.errors.minTicketsPerOrder',
  rule_blocks_reserve: 'reserve.errors.ruleBlocks',
  event_session_sold_out: 'reserve.errors.sessionUnavailable',
  ticket_group_sold_out: 'reserve.errors.groupSoldOut',
  ticket_group_capacity_exceeded: 'reserve.errors.groupCapacity',
  session_capacity_exceeded: 'reserve.errors.sessionCapacity',
  seat_unavailable: 'errors.seatUnavailable',
  seat_required: 'errors.seatRequired',
  member_limit_exceeded: 'reserve.errors.memberLimit',
  invalid_citypass: 'reserve.errors.citypass',
  code_exhausted: 'errors.codeExhausted',
  cart_access_denied: 'errors.cartAccessDenied',
  cart_expired: 'reserve.errors.cartExpired',
  cart_booked: 'errors.cartBooked',
  cart_not_pending: 'errors.cartNotPending',
  cart_checkout_in_progress: 'errors.cartCheckoutInProgress',
  cart_extension_used: 'errors.cartExtensionUsed',
  cart_empty: 'errors.cartEmpty',
  hold_limit_exceeded: 'errors.holdLimitExceeded',
  ticket_not_found: 'errors.ticketNotFound',
  payment_not_supported: 'errors.paymentNotSupported',
  payment_amount_incorrect: 'errors.paymentAmountIncorrect',
  gateway_not_found: 'errors.paymentNotSupported',
  intent_requires_action: 'errors.paymentDeclined',
  card_declined: 'errors.paymentDeclined',
  incorrect_cvc: 'errors.paymentDeclined',
  invalid_cvc: 'errors.paymentDeclined',
  incorrect_number: 'errors.paymentDeclined',
  invalid_expiry_month: 'errors.paymentDeclined',
  invalid_expiry_year: 'errors.paymentDeclined',
  expired_card: 'errors.paymentDeclined',
  payment_intent_authentication_failure: 'errors.paymentDeclined',
  payment_intent_amount_mismatch: 'errors.paymentDeclined',
  payment_refunded: 'errors.paymentRefunded',
  csrf_header_missing: 'errors.unexpected',
  login_disabled: 'errors.loginDisabled',
  identity_access_denied: 'errors.notAuthenticated',
  not_authenticated: 'errors.notAuthenticated',
  not_authorized: 'login.errors.invalidCode',
  invalid_credentials: 'errors.invalidCredentials',
  incorrect_password: 'login.errors.incorrectPassword',
  guest_account: 'login.errors.guestAccount',
  otp_incorrect: 'login.errors.invalidCode',
  otp_token_expired: 'login.errors.invalidCode',
  email_in_use: 'errors.emailInUse',
  unknown_auth_method: 'errors.unknownAuthMethod',
  external_login_required: 'errors.unknownAuthMethod',
  external_login_url_missing: 'errors.externalLoginUrlMissing',
  rate_limited: 'errors.rateLimited',
  internal_error: 'errors.unexpected',
} as const satisfies Record<ErrorCode, string>;

/** The message key of a refusal: the table's, else (a code another API sends) the generic one. */
export function errorMessageKey(error: Pick<Refusal, '_code'>): string {
  return (ERROR_MESSAGES as Readonly<Record<string, string>>)[error._code] ?? 'errors.unexpected';
}

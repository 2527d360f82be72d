/**
 * Checkout rules without I/O (spec sections 5, 8, 9): purchaser field checks the schema cannot express,
 * the test-mode card fields, and how a failed checkout is handled.
 */
import type { Refusal } from '../contract/errors';

export const NAME_MAX = 50;
export const EMAIL_MAX = 254;
export const PHONE_MAX = 50;
/** Letters and digits with an optional single space or hyphen between groups, 4 to 10 long. */
export const ZIP_PATTERN = '^(?=.{4,10}$)[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$';

export interface IdentityFormData {
  first_name?: string;
  last_name?: string;
  email?: string;
  email_confirm?: string;
  phone?: string;
  /** the address lookup's search box (issue 22): never sent */
  address_search?: string;
  address?: string;
  address_more?: string;
  city?: string;
  state?: string;
  zip_code?: string;
  country?: string;
  /** 'create an account' at checkout (issue 13): the account's password, sent with the purchaser */
  password?: string;
}

/** 'Email addresses must match.' compares ignoring case and surrounding blanks. */
export function emailsMatch(email: string | undefined, confirm: string | undefined): boolean {
  return (email ?? '').trim().toLowerCase() === (confirm ?? '').trim().toLowerCase();
}

const OPTIONAL_FIELDS = ['phone', 'address', 'address_more', 'city', 'state', 'zip_code', 'country'] as const;

/** The POST user body: trimmed, empty optional fields left out (the lookup's search box never goes). */
export function purchaserBody(form: IdentityFormData) {
  const text = (v: string | undefined) => (v ?? '').trim();
  const optional = Object.fromEntries(OPTIONAL_FIELDS.filter((f) => text(form[f])).map((f) => [f, text(form[f])]));
  return {
    first_name: text(form.first_name),
    last_name: text(form.last_name),
    email: text(form.email),
    email_confirm: text(form.email_confirm),
    ...optional,
    // A password is sent as typed (its surrounding spaces are a rule the server names, not ours to trim away).
    ...(form.password ? { password: form.password } : {}),
  };
}

export interface CardForm {
  number: string;
  expiry: string;
  cvc: string;
}
export type CardField = keyof CardForm;
export type CardErrors = Partial<Record<CardField, 'required' | 'invalid'>>;

export const cardDigits = (number: string) => number.replace(/[\s-]/g, '');

/** 'MM/YY', 'MM/YYYY', 'MM-YY' or the digits alone as people type them ('1230', '122030') -> month and
 *  four-digit year; null when it is not a date. Without a separator the month has two digits. */
export function parseExpiry(expiry: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*[/-]\s*(\d{2}|\d{4})\s*$/.exec(expiry) ?? /^\s*(\d{2})(\d{2}|\d{4})\s*$/.exec(expiry.replace(/\s+/g, ''));
  if (!m) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return { month, year };
}

/** Shape checks only: whether the card is good is the provider's answer. An expiry in the past is invalid. */
export function validateCard(card: CardForm, now: Date): CardErrors {
  const errors: CardErrors = {};
  const digits = cardDigits(card.number);
  if (!digits) errors.number = 'required';
  else if (!/^\d{12,19}$/.test(digits)) errors.number = 'invalid';
  const expiry = parseExpiry(card.expiry);
  if (!card.expiry.trim()) errors.expiry = 'required';
  else if (!expiry || Date.UTC(expiry.year, expiry.month, 1) <= now.getTime()) errors.expiry = 'invalid';
  if (!card.cvc.trim()) errors.cvc = 'required';
  else if (!/^\d{3,4}$/.test(card.cvc.trim())) errors.cvc = 'invalid';
  return errors;
}

export function cardGatewayData(card: CardForm) {
  const expiry = parseExpiry(card.expiry)!;
  return { card: { number: cardDigits(card.number), exp_month: expiry.month, exp_year: expiry.year, cvc: card.cvc.trim() } };
}

export type CheckoutFailure =
  /** clientSecret: Stripe's, for the browser's own confirmation (3-D Secure); null on the test gateway. */
  | { kind: 'requires_action'; intentId: string; clientSecret: string | null }
  /** `providerMessage`: what the card provider's own script said in the browser (Stripe.js); `reason`: the API's code */
  | { kind: 'payment'; providerMessage: string; reason?: string }
  /** The card provider's script is still loading, or could not load (blocked, offline). */
  | { kind: 'provider'; state: 'loading' | 'unavailable' }
  | { kind: 'expired' }
  | { kind: 'booked'; orderId: string | null }
  | { kind: 'validation'; field: string | null }
  | { kind: 'gift_to_self' }
  /** A gift card the checkout could not charge (issue 13): its refusal's code, and the card's balance when it changed. */
  | { kind: 'gift_card'; code: string; balance: number | null }
  /** A checkout rule wants a code first (rule_blocks_checkout): the blocked-cart code form asks for it. */
  | { kind: 'blocked' }
  /** The card cannot take this amount (spec section 5: 0.50 to 999,999.99). */
  | { kind: 'not_supported' }
  /**
   * 'Create an account' with an e-mail that has one (issue 13, spec section 8): guest_account (no password yet, a link
   * to set one is mailed), incorrect_password, or email_in_use when the account could not be reused.
   */
  | { kind: 'account'; code: 'guest_account' | 'incorrect_password' | 'email_in_use' }
  | { kind: 'unexpected' };

/** Spec sections 4 and 8: what a failed POST user / guest_checkout means for the shopper. */
export function classifyCheckoutError(error: Refusal): CheckoutFailure {
  const extra = error._extra ?? {};
  if (error.status === 402 && error._code === 'intent_requires_action' && typeof extra.intent_id === 'string') {
    return {
      kind: 'requires_action',
      intentId: extra.intent_id,
      clientSecret: typeof extra.client_secret === 'string' && extra.client_secret !== extra.intent_id ? extra.client_secret : null,
    };
  }
  if (error._code === 'rule_blocks_checkout') return { kind: 'blocked' };
  if (error._code === 'payment_not_supported') return { kind: 'not_supported' };
  if (error._code.startsWith('gift_card_')) {
    return { kind: 'gift_card', code: error._code, balance: typeof extra.balance === 'number' ? extra.balance : null };
  }
  // The card's refusal in the locale's words (payment.reasons.{code}); the generic payment sentence for the others.
  if (error.status === 402 || error._context === 'payment') return { kind: 'payment', providerMessage: '', reason: error._code };
  if (error._code === 'cart_expired') return { kind: 'expired' };
  if (error._code === 'cart_booked') {
    return { kind: 'booked', orderId: typeof extra.ticket_order_id === 'string' ? extra.ticket_order_id : null };
  }
  if (error._code === 'guest_account' || error._code === 'incorrect_password' || error._code === 'email_in_use') {
    return { kind: 'account', code: error._code };
  }
  // Issue 12: the purchaser of a gift of membership is its recipient.
  if (error._code === 'gift_to_self') return { kind: 'gift_to_self' };
  if (error.status === 400 && error._code === 'validation_failed') {
    return { kind: 'validation', field: typeof extra.field === 'string' ? extra.field : null };
  }
  return { kind: 'unexpected' };
}

/** The card refusals the API names (spec section 8's expected provider errors), worded by the locale: payment.reasons.*. */
const PAYMENT_REASONS = [
  'card_declined',
  'incorrect_cvc',
  'invalid_cvc',
  'incorrect_number',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'expired_card',
  'incorrect_zip',
  'payment_intent_authentication_failure',
] as const;

/** The i18n key of a card refusal's own sentence, or null (the generic payment sentence says it). */
export function paymentReasonKey(code: string): string | null {
  return (PAYMENT_REASONS as readonly string[]).includes(code) ? `payment.reasons.${code}` : null;
}

/** Spec section 5: what a card payment may be, minor units: 0.50 (GBP 0.30) to 999,999.99. The gateways refuse the same. */
export const CARD_AMOUNT_MAX = 99_999_999;
export const cardAmountMin = (currency: string) => (currency.toUpperCase() === 'GBP' ? 30 : 50);
export const cardAmountSupported = (minor: number, currency: string) => minor >= cardAmountMin(currency) && minor <= CARD_AMOUNT_MAX;

import { randomBytes } from 'node:crypto';
import { paymentError, type ChargeRequest, type Gateway } from './types';

/**
 * The `test` card gateway: behaves like the card provider's test cards so every payment path runs for
 * real without a provider account. Card data is checked as a provider would (Luhn, expiry, CVC).
 *   4242 4242 4242 4242, 5555 5555 5555 4444  succeed
 *   4000 0000 0000 0002                        card_declined
 *   4000 0000 0000 0127                        incorrect_cvc
 *   4000 0025 0000 3155                        needs confirmation: 402 intent_requires_action with an intent
 *                                              id; a retry whose gateway_data.source is that id succeeds.
 * Any other valid number is declined, as test mode refuses real cards.
 */
const SUCCEEDS = new Set(['4242424242424242', '5555555555554444']);
const DECLINED = '4000000000000002';
const INCORRECT_CVC = '4000000000000127';
const REQUIRES_ACTION = '4000002500003155';
export const MIN_CARD_AMOUNT = 50;
export const MAX_CARD_AMOUNT = 99_999_999;

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

interface Card {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

function readCard(data: Record<string, unknown>, now: Date): Card {
  const raw = (typeof data.card === 'object' && data.card !== null ? data.card : data) as Record<string, unknown>;
  const number = String(raw.number ?? '').replace(/[\s-]/g, '');
  if (!luhnValid(number)) throw paymentError('incorrect_number', 'Your card number is incorrect.');
  const month = Number(raw.exp_month);
  let year = Number(raw.exp_year);
  if (!Number.isInteger(month) || month < 1 || month > 12)
    throw paymentError('invalid_expiry_month', "Your card's expiration month is invalid.");
  if (Number.isInteger(year) && year >= 0 && year < 100) year += 2000;
  if (!Number.isInteger(year) || year > now.getUTCFullYear() + 50)
    throw paymentError('invalid_expiry_year', "Your card's expiration year is invalid.");
  // A card is valid through the last day of its expiry month.
  if (Date.UTC(year, month, 1) <= now.getTime()) throw paymentError('expired_card', 'Your card has expired.');
  const cvc = String(raw.cvc ?? '');
  if (!/^\d{3,4}$/.test(cvc)) throw paymentError('invalid_cvc', "Your card's security code is invalid.");
  return { number, exp_month: month, exp_year: year, cvc };
}

async function confirmIntent(req: ChargeRequest, intentId: string) {
  const intent = await req.db
    .selectFrom('payment')
    .select(['id', 'amount'])
    .where('gateway_ref', '=', intentId)
    .where('cart_id', '=', req.cartId)
    .where('gateway_id', '=', 'test')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (!intent) throw paymentError('payment_intent_authentication_failure', 'The payment could not be confirmed. Please try again.');
  if (intent.amount !== req.amount)
    throw paymentError('payment_intent_amount_mismatch', 'The amount changed since the payment was started.');
  return { status: 'succeeded' as const, ref: intentId, paymentId: intent.id };
}

export const testGateway: Gateway = {
  id: 'test',
  accepts: (amount) => amount >= MIN_CARD_AMOUNT && amount <= MAX_CARD_AMOUNT,
  async charge(req) {
    const source = req.gatewayData.source;
    if (typeof source === 'string' && source.startsWith('ti_')) return confirmIntent(req, source);
    const card = readCard(req.gatewayData, req.now);
    if (card.number === DECLINED) throw paymentError('card_declined', 'Your card was declined.', { decline_code: 'generic_decline' });
    if (card.number === INCORRECT_CVC) throw paymentError('incorrect_cvc', "Your card's security code is incorrect.");
    if (card.number === REQUIRES_ACTION) {
      const intentId = `ti_${randomBytes(12).toString('hex')}`;
      await req.db
        .insertInto('payment')
        .values({
          seller_id: req.sellerId,
          cart_id: req.cartId,
          gateway_id: 'test',
          amount: req.amount,
          status: 'pending',
          audit_action: 'capture',
          gateway_ref: intentId,
          idempotency_key: `${req.idempotencyKey}:intent:${intentId}`,
        })
        .execute();
      throw paymentError('intent_requires_action', 'This payment needs to be confirmed.', { intent_id: intentId, client_secret: intentId });
    }
    if (!SUCCEEDS.has(card.number)) {
      throw paymentError('card_declined', 'Your card was declined. Your request was in test mode, but used a non test card.');
    }
    return { status: 'succeeded', ref: `tch_${randomBytes(12).toString('hex')}` };
  },
};

import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { paymentError, type ChargeRequest, type Gateway, type GatewaySettings } from './types';
import { cardAmountSupported } from '../../../src/domain/checkout-rules';

/**
 * The `test` card gateway: behaves like the card provider's test cards so every payment path runs for
 * real without a provider account. Card data is checked as a provider would (Luhn, expiry, CVC).
 *   4242 4242 4242 4242, 5555 5555 5555 4444  succeed
 *   4000 0000 0000 0002                        card_declined
 *   4000 0000 0000 0127                        incorrect_cvc
 *   4000 0025 0000 3155                        needs confirmation: 402 intent_requires_action with an intent
 *                                              id; a retry whose gateway_data.source is that id succeeds.
 * Any other valid number is declined, as test mode refuses real cards. A charge asked to save the card keeps it under a
 * token (table test_gateway_method, a provider's vault); a later charge names it as the request's savedToken and
 * behaves as the saved card would (4000 0000 0000 0002 saved declines then). Like a provider it keeps a record of each
 * charge by idempotency key (table test_gateway_charge), which the reconciler looks up after a crash.
 */
const SUCCEEDS = new Set(['4242424242424242', '5555555555554444']);
const DECLINED = '4000000000000002';
const INCORRECT_CVC = '4000000000000127';
const REQUIRES_ACTION = '4000002500003155';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Records a charge as the provider would, once per idempotency key: a repeated charge under the same key answers
 * the charge made the first time (as a real provider's idempotency keys do).
 */
async function record(req: ChargeRequest, status: 'succeeded' | 'requires_action', prefix: 'tch' | 'ti') {
  await req.db
    .insertInto('test_gateway_charge')
    .values({
      ref: `${prefix}_${randomBytes(12).toString('hex')}`,
      idempotency_key: req.idempotencyKey,
      amount: req.amount,
      currency: req.currency,
      status,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  return req.db.selectFrom('test_gateway_charge').selectAll().where('idempotency_key', '=', req.idempotencyKey).executeTakeFirstOrThrow();
}

/** The shopper confirmed the extra step: the intent made under this attempt's key now succeeds. */
async function confirmIntent(req: ChargeRequest, intentId: string) {
  const intent = await req.db
    .selectFrom('test_gateway_charge')
    .selectAll()
    .where('ref', '=', intentId)
    .where('idempotency_key', '=', req.idempotencyKey)
    .executeTakeFirst();
  if (!intent || intent.status === 'refunded')
    throw paymentError('payment_intent_authentication_failure', 'The payment could not be confirmed. Please try again.');
  if (intent.amount !== req.amount)
    throw paymentError('payment_intent_amount_mismatch', 'The amount changed since the payment was started.');
  await req.db
    .updateTable('test_gateway_charge')
    .set({ status: 'succeeded' })
    .where('ref', '=', intentId)
    .where('status', '=', 'requires_action')
    .execute();
  return { status: 'succeeded' as const, ref: intentId };
}

/** A charge of a kept card (savedToken, from its owner's payment_method row): the card as saved, still checked for expiry. */
async function savedCard(req: ChargeRequest): Promise<Card | null> {
  const token = req.savedToken;
  if (typeof token !== 'string') return null;
  const saved = await req.db.selectFrom('test_gateway_method').selectAll().where('token', '=', token).executeTakeFirst();
  if (!saved) throw paymentError('card_declined', 'The saved card is no longer available.', { decline_code: 'payment_method_missing' });
  if (Date.UTC(saved.exp_year, saved.exp_month, 1) <= req.now.getTime()) throw paymentError('expired_card', 'Your card has expired.');
  return { number: saved.number, exp_month: saved.exp_month, exp_year: saved.exp_year, cvc: '000' };
}

async function saveCard(req: ChargeRequest, card: Card) {
  const token = `tpm_${randomBytes(12).toString('hex')}`;
  await req.db
    .insertInto('test_gateway_method')
    .values({ token, number: card.number, exp_month: card.exp_month, exp_year: card.exp_year })
    .execute();
  const brand = card.number.startsWith('4') ? 'visa' : card.number.startsWith('5') ? 'mastercard' : 'card';
  return { token, brand, last4: card.number.slice(-4), exp_month: card.exp_month, exp_year: card.exp_year };
}

export function createTestGateway(settings: GatewaySettings): Gateway {
  const latency = Math.max(0, settings.testGatewayLatencyMs ?? 0);
  return {
    id: 'test',
    accepts: (amount, currency) => cardAmountSupported(amount, currency),
    async charge(req) {
      const source = req.gatewayData.source;
      if (typeof source === 'string' && source.startsWith('ti_')) return confirmIntent(req, source);
      const card = (await savedCard(req)) ?? readCard(req.gatewayData, req.now);
      if (card.number === DECLINED) throw paymentError('card_declined', 'Your card was declined.', { decline_code: 'generic_decline' });
      if (card.number === INCORRECT_CVC) throw paymentError('incorrect_cvc', "Your card's security code is incorrect.");
      if (card.number === REQUIRES_ACTION) {
        const intent = await record(req, 'requires_action', 'ti');
        throw paymentError('intent_requires_action', 'This payment needs to be confirmed.', {
          intent_id: intent.ref,
          client_secret: intent.ref,
        });
      }
      if (!SUCCEEDS.has(card.number)) {
        throw paymentError('card_declined', 'Your card was declined. Your request was in test mode, but used a non test card.');
      }
      const charge = await record(req, 'succeeded', 'tch');
      const reusable = req.savePaymentMethod ? await saveCard(req, card) : undefined;
      // The provider has taken the money; its answer may still be on its way when the process dies.
      if (latency > 0) await sleep(latency);
      return { status: 'succeeded', ref: charge.ref, ...(reusable ? { reusable } : {}) };
    },
    async lookup({ db, idempotencyKey }) {
      const charge = await db
        .selectFrom('test_gateway_charge')
        .selectAll()
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirst();
      if (!charge || charge.status === 'refunded') return { status: 'none' };
      return { status: charge.status, ref: charge.ref };
    },
    // Like a provider: a refund of all or part of a charge, once per key, never more than is left of it; the charge
    // reads 'refunded' once nothing is left.
    async refund({ db, ref, amount, idempotencyKey }) {
      if (amount <= 0) return;
      await db.transaction().execute(async (trx) => {
        const charge = await trx.selectFrom('test_gateway_charge').selectAll().where('ref', '=', ref).forUpdate().executeTakeFirst();
        // A reference it never issued is refused, as Stripe answers resource_missing: no refund reads as paid out.
        if (!charge) throw paymentError('payment_failed', 'There is no charge with this reference.', { provider_code: 'resource_missing' });
        // Nothing was taken from a charge that still waits for its 3-D Secure step: there is nothing to give back.
        if (charge.status === 'requires_action') return;
        const done = await trx
          .selectFrom('test_gateway_refund')
          .select('ref')
          .where('idempotency_key', '=', idempotencyKey)
          .executeTakeFirst();
        if (done) return;
        const before = await trx
          .selectFrom('test_gateway_refund')
          .select(sql<number>`coalesce(sum(amount), 0)::int`.as('sum'))
          .where('ref', '=', ref)
          .executeTakeFirstOrThrow();
        const refunded = charge.status === 'refunded' && Number(before.sum) === 0 ? charge.amount : Number(before.sum);
        if (refunded + amount > charge.amount)
          throw paymentError('payment_failed', 'The refund is more than what is left of the charge.', {
            provider_code: 'amount_too_large',
          });
        await trx.insertInto('test_gateway_refund').values({ idempotency_key: idempotencyKey, ref, amount }).execute();
        if (refunded + amount === charge.amount)
          await trx
            .updateTable('test_gateway_charge')
            .set({ status: 'refunded', refunded_at: new Date() })
            .where('ref', '=', ref)
            .execute();
      });
    },
    async forget({ db, token }) {
      await db.deleteFrom('test_gateway_method').where('token', '=', token).execute();
    },
  };
}

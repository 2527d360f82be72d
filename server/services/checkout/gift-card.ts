import { randomInt } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Deps } from '../../deps';
import type { Database } from '../../db/types';
import { grandTotals } from '../../../src/domain/cart-rules';
import { creditCard, GIFT_CARD, ledgerGuarded, paymentError } from '../payments';
import { cartmodOf, linesOf } from '../cart/totals';
import { DomainError } from '../errors';
import { countedCard } from '../gift-cards';

type Trx = Transaction<Database>;

/**
 * Gift cards at checkout (issue 13). A card pays by a checkout through the ledger gateway, all of what is outstanding
 * or part of it; what it paid stays on the cart as a succeeded payment until the order is booked. A cart that is given
 * up (it expires, it is deleted) or no longer owes that much (tickets taken out) puts the money back on the cards.
 */

/** Before anything is claimed: the card exists, holds something, does not pay this cart already, and covers the amount. */
export async function checkGiftCard(
  deps: Deps,
  sellerId: string,
  cartId: string,
  number: unknown,
  amount: number,
  addressHash: string | null | undefined,
): Promise<void> {
  // Wrong numbers count against the address on the same limit as GET ledger's.
  const card = await countedCard(deps, sellerId, typeof number === 'string' ? number : '', addressHash);
  if (card.state !== 'active') throw paymentError('gift_card_not_found', 'Gift card not found.');
  const applied = await deps.db
    .selectFrom('payment')
    .select('id')
    .where('cart_id', '=', cartId)
    .where('gateway_id', '=', 'ledger')
    .where('gateway_ref', '=', card.id)
    .where('status', 'in', ['succeeded', 'pending'])
    .executeTakeFirst();
  if (applied) throw paymentError('gift_card_applied', 'This gift card already pays part of the cart.');
  if (card.balance <= 0) throw paymentError('gift_card_empty', 'The gift card holds nothing.');
  if (ledgerGuarded() && amount > card.balance) {
    throw paymentError('gift_card_balance_insufficient', 'The gift card does not hold that much.', { balance: card.balance });
  }
}

/** Crockford's base 32 without I, L, O, U: 16 characters are 80 random bits, read aloud or typed without confusion. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export function newCardNumber(): string {
  const chars = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `GC-${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8, 12).join('')}-${chars.slice(12).join('')}`;
}

/** The booked order's gift-card tickets become cards holding what each was bought for (in the booking transaction). */
export async function issueGiftCards(trx: Trx, args: { sellerId: string; orderId: string }): Promise<void> {
  const tickets = await trx
    .selectFrom('ticket')
    .select(['id', 'adjusted_value'])
    .where('ticket_order_id', '=', args.orderId)
    .where('handler', '=', 'ledger')
    .execute();
  if (tickets.length === 0) return;
  const seller = await trx.selectFrom('seller').select('currency').where('id', '=', args.sellerId).executeTakeFirstOrThrow();
  for (const t of tickets) {
    const card = await trx
      .insertInto('ledger')
      .values({
        seller_id: args.sellerId,
        ledger_type: GIFT_CARD,
        number: newCardNumber(),
        balance: t.adjusted_value,
        currency: seller.currency,
        ticket_id: t.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('ledger_entry').values({ ledger_id: card.id, amount: t.adjusted_value, reason: 'issued' }).execute();
  }
}

/**
 * Puts gift-card payments of unbooked carts back on their cards, newest first: all of them (`keepUpTo` absent: the
 * cart expired or was deleted), or as many as it takes for the cart's payments to be no more than it owes. The
 * credit is keyed like a refund, so a payment is never given back twice.
 */
export async function returnGiftCardPayments(trx: Trx, cartIds: string[], now: Date, opts: { keepUpTo?: number } = {}): Promise<number> {
  if (cartIds.length === 0) return 0;
  const payments = await trx
    .selectFrom('payment')
    .select(['id', 'cart_id', 'amount', 'gateway_ref', 'idempotency_key'])
    .where('cart_id', 'in', cartIds)
    .where('gateway_id', '=', 'ledger')
    .where('status', '=', 'succeeded')
    .where('ticket_order_id', 'is', null)
    .orderBy('occurred_on', 'desc')
    .orderBy('id', 'desc')
    .execute();
  let paid = payments.reduce((s, p) => s + p.amount, 0);
  let returned = 0;
  for (const p of payments) {
    if (opts.keepUpTo !== undefined && paid <= opts.keepUpTo) break;
    if (!p.gateway_ref) continue;
    await creditCard(trx, {
      ledgerId: p.gateway_ref,
      amount: p.amount,
      key: `${p.idempotency_key}:refund`,
      reason: 'returned',
      cartId: p.cart_id,
      paymentId: p.id,
    });
    await trx.updateTable('payment').set({ status: 'refunded', audit_action: 'refund', updated_at: now }).where('id', '=', p.id).execute();
    paid -= p.amount;
    returned++;
  }
  return returned;
}

/**
 * After a change to a cart: gift cards that now pay more than the cart owes give their payments back. Card payments
 * (a payment plan's parts) are not given back here: a change that would owe them back is refused.
 */
export async function returnOverpayment(trx: Trx, cartId: string, now: Date): Promise<void> {
  const tickets = await trx.selectFrom('ticket').selectAll().where('cart_id', '=', cartId).where('state', '=', 'in_cart').execute();
  const due = grandTotals(linesOf(tickets), 0, cartmodOf(tickets)).total_outstanding;
  const cards = await cardPaid(trx, cartId);
  if (cards > due) throw cartHasPayments(cartId);
  await returnGiftCardPayments(trx, [cartId], now, { keepUpTo: due - cards });
}

export const cartHasPayments = (cartId: string) =>
  new DomainError('cart_has_payments', 'Payments were taken on this cart; the box office changes it.', 'cart', { cart_id: cartId });

/** What cards (not gift cards) have paid on an unbooked cart: a payment plan's parts. */
export async function cardPaid(trx: Trx, cartId: string): Promise<number> {
  const rows = await trx
    .selectFrom('payment')
    .select('amount')
    .where('cart_id', '=', cartId)
    .where('status', '=', 'succeeded')
    .where('gateway_id', '<>', 'ledger')
    .where('ticket_order_id', 'is', null)
    .execute();
  return rows.reduce((s, r) => s + r.amount, 0);
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { normaliseGiftCardNumber } from '../../../src/domain/gift-card';
import { paymentError, type Gateway } from './types';

/**
 * The ledger gateway (DESIGN.md section 5): gift cards, paying all or part of a cart. The money never leaves our
 * database, so a charge is one statement that takes the amount off the card only while the balance covers it and
 * writes the card's ledger entry under the attempt's idempotency key; a refund puts it back the same way, once per key.
 */
type Db = Kysely<Database>;

let unsafeSkipLedgerGuard = false;
/**
 * TEST ONLY: debit without the balance condition (and without the checkout's look at the balance beforehand), so the
 * concurrency test can show that the conditional update is what keeps a card from being overspent.
 */
export function setUnsafeSkipLedgerGuardForTests(on: boolean): void {
  unsafeSkipLedgerGuard = on;
}
export const ledgerGuarded = () => !unsafeSkipLedgerGuard;

export const GIFT_CARD = 'giftcard';

/** A seller's card by its number (as typed: spaces around and letter case do not matter). */
export function findCard(db: Db, sellerId: string, number: string, ledgerType = GIFT_CARD) {
  return db
    .selectFrom('ledger')
    .select(['id', 'number', 'state', 'balance', 'currency', 'ledger_type'])
    .where('seller_id', '=', sellerId)
    .where('ledger_type', '=', ledgerType)
    .where('number', '=', normaliseGiftCardNumber(number))
    .executeTakeFirst();
}

const entryByKey = (db: Db, key: string) =>
  db.selectFrom('ledger_entry').select(['ledger_id']).where('idempotency_key', '=', key).executeTakeFirst();

/**
 * Puts an amount back on a card, once per key: the entry and the balance change are one statement, and a key already
 * written changes nothing. Used by refunds through the gateway and by carts that give their gift-card payments back.
 */
export async function creditCard(
  db: Db,
  args: { ledgerId: string; amount: number; key: string; reason: string; cartId?: string | null; paymentId?: string | null },
): Promise<void> {
  await sql`
    with e as (
      insert into ledger_entry (ledger_id, amount, reason, cart_id, payment_id, idempotency_key)
      values (${args.ledgerId}, ${args.amount}, ${args.reason}, ${args.cartId ?? null}, ${args.paymentId ?? null}, ${args.key})
      on conflict (idempotency_key) where idempotency_key is not null do nothing
      returning ledger_id, amount
    )
    update ledger set balance = ledger.balance + e.amount from e where ledger.id = e.ledger_id`.execute(db);
}

export const ledgerGateway: Gateway = {
  id: 'ledger',
  accepts: (amount) => amount > 0,
  async charge(req) {
    const done = await entryByKey(req.db, req.idempotencyKey);
    if (done) return { status: 'succeeded', ref: done.ledger_id };
    const card = await findCard(req.db, req.sellerId, String(req.gatewayData.number ?? ''));
    if (!card || card.state !== 'active') throw paymentError('gift_card_not_found', 'Gift card not found.');
    const taken = unsafeSkipLedgerGuard
      ? await sql<{ ledger_id: string }>`
          with d as (update ledger set balance = balance - ${req.amount}::int where id = ${card.id} returning id)
          insert into ledger_entry (ledger_id, amount, reason, cart_id, idempotency_key)
          select id, ${-req.amount}::int, 'payment', ${req.cartId}, ${req.idempotencyKey} from d returning ledger_id`.execute(req.db)
      : // The guard: the balance is read and lowered by the same row update, so two carts spending one card at once
        // take at most what it holds; the loser finds the balance short and says how much is left.
        await sql<{ ledger_id: string }>`
          with d as (
            update ledger set balance = balance - ${req.amount}::int
            where id = ${card.id} and state = 'active' and balance >= ${req.amount}::int returning id
          )
          insert into ledger_entry (ledger_id, amount, reason, cart_id, idempotency_key)
          select id, ${-req.amount}::int, 'payment', ${req.cartId}, ${req.idempotencyKey} from d returning ledger_id`.execute(req.db);
    if (taken.rows.length === 0) {
      const now = await findCard(req.db, req.sellerId, card.number);
      throw paymentError('gift_card_balance_insufficient', 'The gift card does not hold that much.', {
        balance: now?.balance ?? 0,
      });
    }
    return { status: 'succeeded', ref: card.id };
  },
  // The entry under the attempt's key is the charge: there or not, nothing is in between.
  async lookup(req) {
    const done = await entryByKey(req.db, req.idempotencyKey);
    return done ? { status: 'succeeded', ref: done.ledger_id } : { status: 'none' };
  },
  async refund(req) {
    await creditCard(req.db, { ledgerId: req.ref, amount: req.amount, key: req.idempotencyKey, reason: 'refund' });
  },
  async forget() {},
};

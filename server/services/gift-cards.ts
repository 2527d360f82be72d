import type { Deps } from '../deps';
import type { Seller } from '../db/types';
import { money } from '../../src/domain/money';
import { table } from '../../src/contract/tables';
import type { LedgerAnswer } from '../../src/contract/ledger';
import { findCard, paymentError } from './payments';
import { hit, refund } from './auth/rate-limit';
import { sha256 } from './cart/access';

/**
 * A seller's card by its number, counted: a number is all it takes to spend a card, so every wrong number counts
 * against the client's address (30 per 15 minutes, `gift_card_ip`), whether looked up or paid with, and a number that
 * exists gives its try back. `addressHash` is the caller's (cart/access.ts Caller.addressHash).
 */
export async function countedCard(deps: Deps, sellerId: string, number: string, addressHash: string | null | undefined) {
  const subject = `${sellerId}:${addressHash ?? ''}`;
  await hit(deps, 'gift_card_ip', subject);
  const card = number.trim() ? await findCard(deps.db, sellerId, number) : undefined;
  if (!card) throw paymentError('gift_card_not_found', 'Gift card not found.');
  await refund(deps, 'gift_card_ip', subject);
  return card;
}

/** GET ledger/giftcard/{number}: the card's state and balance (404 gift_card_not_found). */
export async function lookupGiftCard(deps: Deps, seller: Seller, number: string, address: string | undefined): Promise<LedgerAnswer> {
  const card = await countedCard(deps, seller.id, number, address ? sha256(`address:${address}`) : null);
  return {
    ledger: table([
      { number: card.number, ledger_type: 'giftcard' as const, state: card.state, balance: money(card.balance), currency: card.currency },
    ]),
  };
}

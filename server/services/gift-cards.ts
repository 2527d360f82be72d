import type { Deps } from '../deps';
import type { Seller } from '../db/types';
import { money } from '../../src/domain/money';
import { table } from '../../src/contract/tables';
import type { LedgerAnswer } from '../../src/contract/ledger';
import { findCard, paymentError } from './payments';
import { hit, refund } from './auth/rate-limit';
import { sha256 } from './cart/access';

/**
 * GET ledger/giftcard/{number}: the card's state and balance. A number is all it takes to spend a card, so wrong
 * numbers count against the client's address (30 per 15 minutes); a number that exists gives its try back.
 */
export async function lookupGiftCard(deps: Deps, seller: Seller, number: string, address: string | undefined): Promise<LedgerAnswer> {
  const subject = `${seller.id}:${sha256(`giftcard:${address ?? ''}`)}`;
  await hit(deps, 'gift_card_ip', subject);
  const card = await findCard(deps.db, seller.id, number);
  if (!card) throw paymentError('gift_card_not_found', 'Gift card not found.');
  await refund(deps, 'gift_card_ip', subject);
  return {
    ledger: table([
      { number: card.number, ledger_type: 'giftcard' as const, state: card.state, balance: money(card.balance), currency: card.currency },
    ]),
  };
}

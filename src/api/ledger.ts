import type { ApiClient } from './http';
import type { LedgerAnswer, LedgerRow } from '../contract/ledger';

/** GET ledger/giftcard/{number}: the card's state and balance (404 gift_card_not_found). */
export async function getGiftCard(client: ApiClient, number: string): Promise<LedgerRow> {
  const { data } = await client.get<LedgerAnswer>(`ledger/giftcard/${encodeURIComponent(number)}`);
  const row = data.ledger?._data?.[0];
  if (!row) throw new Error('GET ledger answered without a card');
  return row;
}

import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { Literals, Money, Row, SellerQuery } from './primitives';
import { Table } from './tables';
import { GIFT_CARD_MAX } from './limits';

/**
 * Gift cards (issue 13; spec sections 3 'Gift card (ledger)' and 7 'GET ledger/{ledgerType}/{number}'). A card pays
 * by a checkout through the `ledger` gateway (cart.ts CheckoutBody: `gateway_id: "ledger"`, `gateway_data.number`).
 */
export const LedgerRow = Row({
  number: Type.String(),
  ledger_type: Literals('giftcard'),
  state: Type.String(),
  balance: Money,
  currency: Type.String(),
});
export type LedgerRow = Static<typeof LedgerRow>;

export const LedgerAnswer = Row({ ledger: Table(LedgerRow) });
export type LedgerAnswer = Static<typeof LedgerAnswer>;

const LedgerParams = Type.Object({
  ledgerType: Literals('giftcard'),
  /** as typed: letters, digits, spaces, dots, underscores and hyphens (matched trimmed and in upper case) */
  number: Type.String({ minLength: 1, maxLength: GIFT_CARD_MAX + 20, pattern: '^[A-Za-z0-9 ._-]+$' }),
});

export const ledgerRoutes = {
  lookup: route({
    method: 'GET',
    url: '/ledger/:ledgerType/:number',
    schema: {
      summary: 'A gift card by its number: its state and balance; 404 gift_card_not_found (wrong numbers are limited per address)',
      tags: ['cart'],
      params: LedgerParams,
      querystring: SellerQuery,
      response: answers(LedgerAnswer),
    },
  }),
};

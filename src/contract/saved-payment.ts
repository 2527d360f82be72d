import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { IdParams, Instant, Row, SellerQuery, Text, Uuid } from './primitives';
import { Table } from './tables';

/**
 * Saved payment methods (issue 22; spec section 3 'Saved payment method (identifier)', section 7 `GET
 * my/identity/saved_payment_method`). What may be shown of a kept card: never its number, never the provider's token.
 * The checkout pays with one by naming its id in `gateway_data.saved_payment_method`.
 */
export const SavedPaymentMethodRow = Row({
  id: Uuid,
  /** the gateway that keeps it (`test`, `stripe`): the checkout offers only the seller's current gateway's cards */
  gateway_id: Text(20),
  /** the card network as the provider names it (`visa`, `mastercard`, ...) */
  brand: Text(40),
  last4: Type.String({ pattern: '^[0-9]{4}$' }),
  exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
  exp_year: Type.Integer({ minimum: 2000, maximum: 9999 }),
  created_at: Instant,
});
export type SavedPaymentMethodRow = Static<typeof SavedPaymentMethodRow>;

export const SavedPaymentMethodsAnswer = Row({ saved_payment_method: Table(SavedPaymentMethodRow) });
export type SavedPaymentMethodsAnswer = Static<typeof SavedPaymentMethodsAnswer>;

export const savedPaymentRoutes = {
  list: route({
    method: 'GET',
    url: '/my/identity/saved_payment_method',
    schema: {
      summary: "The logged-in user's saved cards, newest first: brand, last 4, expiry (never the number or the token)",
      tags: ['account'],
      querystring: SellerQuery,
      response: answers(SavedPaymentMethodsAnswer),
    },
  }),
  remove: route({
    method: 'DELETE',
    url: '/my/identity/saved_payment_method/:id',
    schema: {
      summary: "Removes one of the logged-in user's saved cards (the provider forgets it too); another user's id is 404",
      tags: ['account'],
      params: IdParams,
      querystring: SellerQuery,
      response: answers(SavedPaymentMethodsAnswer),
    },
  }),
};

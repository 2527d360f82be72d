import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { Body, IdParams, Literals, Money, NullableInstant, NullableMoney, NullableString, Row, SellerRef, Text, Uuid } from './primitives';
import { Table } from './tables';
import { CartAnswer, CartQuery } from './cart';

/** Promo codes (spec sections 5, 7 and 8; issue 13's wire). */

/**
 * A code as typed (room for spaces round it): the server trims it and checks 2 to 35 characters itself, to answer with
 * the spec's codes.
 */
const CODE_TEXT_MAX = 55;
const CodeText = Text(CODE_TEXT_MAX);

export const ApplyCodeBody = Body({
  codes: Type.Array(CodeText, { maxItems: 20 }),
  /** codes to take off the cart; their uses are given back */
  remove_codes: Type.Optional(Type.Array(CodeText, { maxItems: 20 })),
  /** refuse a code that discounts nothing in the cart (no_code_benefit); default true */
  require_benefit: Type.Optional(Type.Boolean()),
  /** skip the codes that fail instead of refusing the request (the seller's default code, preloaded codes) */
  ignore_errors: Type.Optional(Type.Boolean()),
});
export type ApplyCodeBody = Static<typeof ApplyCodeBody>;

export const PromoCartModRow = Row({
  id: Uuid,
  name: Type.String(),
  discount_type: Literals('percent', 'amount', 'price'),
  /** whole percent for percent; money for amount (off) and price (the new price) */
  discount: Type.String(),
  blocking_checkout: Type.Boolean(),
  activating_code_groups: Type.Array(Type.String()),
});
export const PromoCodeRow = Row({
  code: Type.String(),
  cart_mod_id: Uuid,
  valid_from: NullableInstant,
  valid_to: NullableInstant,
  exhausted: Type.Boolean(),
});
export const PromoTicketTypeRow = Row({
  id: Uuid,
  name: Type.String(),
  ticket_group_id: Uuid,
  currency_amount: Money,
  discounted_amount: NullableMoney,
  summary: NullableString(),
});
export const CodeAnswer = Row({
  code: Table(PromoCodeRow),
  cart_mod: Table(PromoCartModRow),
  /** the ticket types it discounts; empty: every ticket */
  ticket_type: Table(PromoTicketTypeRow),
});
export type CodeAnswer = Static<typeof CodeAnswer>;

const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: CODE_TEXT_MAX, pattern: '^[^/\\u0000-\\u001f]+$' }) });

export const promoRoutes = {
  applyCode: route({
    method: 'POST',
    url: '/cart/:id/apply_code',
    schema: {
      summary: "Puts promo codes on the caller's pending cart (and takes codes off), taking each code's use; answers the cart",
      tags: ['cart'],
      params: IdParams,
      querystring: CartQuery,
      body: ApplyCodeBody,
      response: answers(CartAnswer),
    },
  }),
  myApplyCode: route({
    method: 'POST',
    url: '/my/cart/:id/apply_code',
    schema: {
      summary: "apply_code for the logged-in user's cart",
      tags: ['cart'],
      params: IdParams,
      querystring: CartQuery,
      body: ApplyCodeBody,
      response: answers(CartAnswer),
    },
  }),
  lookup: route({
    method: 'GET',
    url: '/code/:code',
    schema: {
      summary: 'What a promo code gives: its cart mod and ticket types; 404 code_not_found for an unknown or out-of-date code',
      tags: ['cart'],
      params: CodeParams,
      querystring: Type.Object({
        _seller: Type.Optional(SellerRef),
        mode: Type.Optional(Type.String({ maxLength: 40, pattern: '^[a-z,]*$' })),
      }),
      response: answers(CodeAnswer),
    },
  }),
};

import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import { Binary, Body, FlatInfo, IdParams, Instant, Literals, OrNull, Row, SellerQuery, SellerRef, Text, Uuid, Embed } from './primitives';
import { Table } from './tables';
import { CartTicketTypeRow, CheckoutBody, checkoutAnswers } from './cart';
import { MembershipRow, RoleRow, MembershipProgramRow } from './account';

/**
 * Memberships (issue 12; spec sections 3, 4, 6, 7): the rules of each level, gifts of membership, redeeming a gift
 * code, auto-renew. A level itself is bought as cart lines (`POST cart/modify`: one line per member, each with its
 * `party_role` and, for named roles, its `admit_name`; no session), and `auto_renew: true` on the checkout chooses
 * auto-renew.
 */

// ---- rows ----

/** Who may be on a level (spec section 3, Membership rule): a party role, named or not, between min and max (max < 0: any). */
export const MembershipRuleRow = Row({
  id: Uuid,
  role_id: Uuid,
  ticket_type_id: OrNull(Uuid),
  ticket_group_id: OrNull(Uuid),
  party_role: Type.String(),
  named: Literals('yes', 'no', 'optional'),
  min: Type.Integer(),
  max: Type.Integer(),
});
export type MembershipRuleRow = Static<typeof MembershipRuleRow>;

/** A gift of membership as its code reads (spec section 4: expired before valid_from or after valid_to; exhausted once redeemed). */
export const GiftCodeRow = Row({
  code: Type.String(),
  role_id: Uuid,
  valid_from: Instant,
  valid_to: Instant,
  exhausted: Type.Boolean(),
});
export type GiftCodeRow = Static<typeof GiftCodeRow>;

export const GifteeRow = Row({ identity_id: Uuid, first_name: Type.String(), last_name: Type.String(), email: Type.String() });
export type GifteeRow = Static<typeof GifteeRow>;

// ---- answers ----

/** GET membership_rules: every level's rules, with the levels (`role`), their programs and their ticket types as `_embed` asks. */
export const MembershipRulesAnswer = Row({
  membership_rule: Table(MembershipRuleRow),
  role: Type.Optional(Table(RoleRow)),
  membership_program: Type.Optional(Table(MembershipProgramRow)),
  ticket_type: Type.Optional(Table(CartTicketTypeRow)),
});
export type MembershipRulesAnswer = Static<typeof MembershipRulesAnswer>;

export const GiftCodeAnswer = Row({ gift_code: Table(GiftCodeRow) });
export type GiftCodeAnswer = Static<typeof GiftCodeAnswer>;

export const GifteeAnswer = Row({ giftee: Table(GifteeRow) });
export type GifteeAnswer = Static<typeof GifteeAnswer>;

/** A membership changed (redeemed, auto-renew cancelled): the row as GET my/membership lists it. */
export const MembershipAnswer = Row({ membership: Table(MembershipRow) });
export type MembershipAnswer = Static<typeof MembershipAnswer>;

// ---- requests ----

export const GifteeBody = Body({
  _seller: Type.Optional(SellerRef),
  first_name: Text(50, { minLength: 1 }),
  last_name: Text(50, { minLength: 1 }),
  email: Text(254, { minLength: 3 }),
  additional_info: Type.Optional(FlatInfo),
});
export type GifteeBody = Static<typeof GifteeBody>;

/** The gift checkout: the checkout payload and who receives the gift. */
export const GiftCheckoutBody = Type.Object({ ...CheckoutBody.properties, giftee_identity_id: Uuid }, { additionalProperties: false });
export type GiftCheckoutBody = Static<typeof GiftCheckoutBody>;

/** A gift code: the spec's 10 characters (digits as issued; anything else is simply not found). */
const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9-]+$' }) });

export const membershipRoutes = {
  rules: route({
    method: 'GET',
    url: '/membership_rules',
    schema: {
      summary: "Every membership level's rules; `_embed=ticket_type,role,membership_program` adds the levels and their types",
      tags: ['membership'],
      querystring: Type.Object({ _seller: Type.Optional(SellerRef), _embed: Type.Optional(Embed) }),
      response: answers(MembershipRulesAnswer),
    },
  }),
  giftCode: route({
    method: 'GET',
    url: '/gift_code/:code',
    schema: {
      summary: 'A gift of membership by its code: its validity and whether it was redeemed; 404 not_found otherwise',
      tags: ['membership'],
      params: CodeParams,
      querystring: SellerQuery,
      response: answers(GiftCodeAnswer),
    },
  }),
  redeem: route({
    method: 'POST',
    url: '/my/gift_code/:code/redeem',
    schema: {
      summary: 'Redeems a gift of membership for the logged-in user, once: the membership it books at no charge',
      tags: ['membership'],
      params: CodeParams,
      querystring: SellerQuery,
      response: answers(MembershipAnswer),
    },
  }),
  giftee: route({
    method: 'POST',
    url: '/giftee',
    schema: {
      summary: 'Records who receives a gift of membership; answers its identity id for the gift checkout',
      tags: ['membership'],
      body: GifteeBody,
      response: answers(GifteeAnswer),
    },
  }),
  giftCheckout: route({
    method: 'POST',
    url: '/cart/:id/gift_checkout',
    schema: {
      summary: 'Pays for a gift of membership (guest giver): the giftee receives a gift code, the giver the receipt',
      tags: ['membership'],
      params: IdParams,
      body: GiftCheckoutBody,
      response: checkoutAnswers(),
    },
  }),
  myGiftCheckout: route({
    method: 'POST',
    url: '/my/cart/:id/gift_checkout',
    schema: {
      summary: 'Pays for a gift of membership (logged-in giver)',
      tags: ['membership'],
      params: IdParams,
      body: GiftCheckoutBody,
      response: checkoutAnswers(),
    },
  }),
  cancelAutoRenew: route({
    method: 'DELETE',
    url: '/ticket_order/:id/auto_renew',
    schema: {
      summary: "Cancels the auto-renew of the logged-in member's membership bought by this order; only a scheduled one",
      tags: ['membership'],
      params: IdParams,
      querystring: SellerQuery,
      response: answers(MembershipAnswer),
    },
  }),
  qrcode: route({
    method: 'GET',
    url: '/membership/:id/qrcode',
    schema: {
      summary: "The logged-in member's membership card as a QR code of its scan code",
      tags: ['membership'],
      params: IdParams,
      querystring: SellerQuery,
      response: { 200: Binary('image/png', 'a PNG image'), '4xx': answers(Type.Null())['4xx'] },
      produces: ['image/png'],
    },
  }),
};

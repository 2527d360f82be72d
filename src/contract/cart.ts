import { Type, type Static } from 'typebox';
import { answers, route } from './answers';
import {
  Binary,
  Body,
  IdParams,
  Instant,
  Json,
  JsonObject,
  Literals,
  Money,
  NullableInstant,
  NullableInteger,
  NullableMoney,
  NullableString,
  OrNull,
  Row,
  SellerQuery,
  SellerRef,
  SurveyAnswers,
  Text,
  Embed,
  DateOrDateTime,
  Uuid,
} from './primitives';
import { Table } from './tables';
import { TicketSeat } from './seating';
import { ORDER_TOKEN_HEADER } from './urls';

export { ORDER_TOKEN_HEADER };

/** Carts, holds, checkout and ticket orders (spec sections 3, 4 and 7). */

// ---- rows ----

export const TicketState = Literals('in_cart', 'held', 'booked', 'redeemed', 'cancelled', 'unbooked');

export const TicketRow = Row({
  id: Uuid,
  state: TicketState,
  cart_id: NullableString(),
  ticket_order_id: NullableString(),
  event_session_id: NullableString(),
  event_template_id: Uuid,
  ticket_type_id: Uuid,
  ticket_group_id: Uuid,
  handler: Type.String(),
  valid_from: NullableInstant,
  valid_to: NullableInstant,
  admit_name: NullableString(),
  admit_email: NullableString(),
  face_value: Money,
  adjusted_value: Money,
  fees: Money,
  seat_id: NullableString(),
  /** the seat of a seated ticket ('Orchestra row C seat 7'), null for others */
  seat: OrNull(TicketSeat),
  /** the CityPASS code a CityPASS ticket was reserved with (upper case), null for others */
  citypass_code: Type.Optional(NullableString()),
  /** only once booked: the scan code is the ticket itself */
  scan_code: NullableString(),
  start_datetime: NullableInstant,
  timezone: NullableString(),
});
export type TicketRow = Static<typeof TicketRow>;

export const TicketOrderRow = Row({
  id: Uuid,
  order_number: Type.String(),
  identity_id: Uuid,
  cart_id: Uuid,
  state: Type.String(),
  purchased_on: Instant,
  total_before_fees_price: Money,
  total_fees: Money,
  total_discount: Money,
  total_after_fees_price: Money,
  /** the checkout's answer only: the token that lets this browser read the order, shown once */
  access_token: Type.Optional(Type.String()),
});
export type TicketOrderRow = Static<typeof TicketOrderRow>;

/** The catalogue rows a cart or an order refers to, as much as the cart and the confirmation show. */
export const CartTicketTypeRow = Row({
  id: Uuid,
  name: Type.String(),
  _rank: Type.Integer(),
  summary: NullableString(),
  ticket_group_id: Uuid,
  currency_amount: Money,
  currency_amount_min: NullableMoney,
  currency_amount_max: NullableMoney,
  discounted_amount: NullableMoney,
  /** the catalogue's fee specs: name with fixed (minor units) or percent */
  outside_fees: Json,
});
export type CartTicketTypeRow = Static<typeof CartTicketTypeRow>;
export const CartTicketGroupRow = Row({
  id: Uuid,
  name: Type.String(),
  handler: Type.String(),
  event_template_id: Uuid,
  min_tickets_per_order: Type.Integer(),
  max_tickets_per_order: Type.Integer(),
  meta: JsonObject,
});
export type CartTicketGroupRow = Static<typeof CartTicketGroupRow>;
export const CartEventTemplateRow = Row({
  id: Uuid,
  name: Type.String(),
  category: Type.String(),
  subtitle: NullableString(),
  venue_id: NullableString(),
  event_type: Literals('single', 'repeating', 'other'),
  meta: JsonObject,
});
export type CartEventTemplateRow = Static<typeof CartEventTemplateRow>;
export const CartSessionRow = Row({ id: Uuid, event_template_id: Uuid, start_datetime: Instant, end_datetime: Instant });
export type CartSessionRow = Static<typeof CartSessionRow>;
export const CartVenueRow = Row({ id: Uuid, name: Type.String(), timezone: Type.String() });
export type CartVenueRow = Static<typeof CartVenueRow>;

export const CartState = Literals('pending', 'checking_out', 'completed', 'expired', 'cancelled');

/** Spec section 3 cart fees grand_totals, as money. */
export const GrandTotalsRow = Row({
  total_before_cartmod_price: Money,
  total_fee_fixed_outside: Money,
  total_fee_percent_outside: Money,
  total_cartmod_amount: Money,
  total_payments: Money,
  total_outstanding: Money,
});
export type GrandTotalsRow = Static<typeof GrandTotalsRow>;

/** Spec section 3 "Cart item (display)": the tickets of one event (and session), counted per type. */
export const CartItemRow = Row({
  id: Type.String(),
  name: Type.String(),
  event_template_id: Uuid,
  event_session_id: NullableString(),
  start_datetime: NullableInstant,
  end_datetime: NullableInstant,
  /** the event's category, and its own conflict pads in minutes (meta pad_pre_start / pad_post_end; null: the
   *  seller's conflict_avoidance defaults): what the storefront needs to disable overlapping sessions (issue 16) */
  category: Type.String(),
  pad_pre_start: NullableInteger(),
  pad_post_end: NullableInteger(),
  image_url: NullableString(),
  image_alt: Type.String(),
  types: Type.Array(
    Row({
      ticket_type_id: Uuid,
      ticket_type_name: Type.String(),
      ticket_group_id: Type.Optional(Uuid),
      ticket_group_name: Type.String(),
      ticketCount: Type.Integer(),
      /** after promo codes */
      totalPrice: Money,
      /** what the cart's promo codes take off these tickets */
      discount: Type.Optional(Money),
      /** the face values of these tickets (before member prices and codes): the ecommerce events' discount is face
       *  minus adjusted (spec section 9) */
      totalFaceValue: Type.Optional(Money),
    }),
  ),
  isAnchor: Type.Boolean(),
  isDependency: Type.Boolean(),
  isMembershipEvent: Type.Boolean(),
  ticketIds: Type.Array(Uuid),
  /** the seats of the item's seated tickets, front to back and along each row */
  seats: Type.Array(TicketSeat),
  /** the CityPASS codes of the item's CityPASS tickets, in order (absent when there are none) */
  citypassCodes: Type.Optional(Type.Array(Type.String())),
});
export type CartItemRow = Static<typeof CartItemRow>;

/** A promo code on the cart: its cart mod, the code, and what it takes off this cart (issue 13). */
export const CartModRow = Row({
  id: Uuid,
  name: Type.String(),
  code: Type.String(),
  discount_type: Literals('percent', 'amount', 'price'),
  discount: Money,
  tickets_affected: Type.Integer(),
  blocking_checkout: Type.Boolean(),
  resource: NullableString(),
  resource_id: NullableString(),
  activating_code_groups: Type.Array(Type.String()),
});
export type CartModRow = Static<typeof CartModRow>;

/** A gift card that paid part of the cart (spec section 3 gift card payments): its number, what it paid, what it holds now. */
export const GiftCardPaymentRow = Row({
  payment_id: Uuid,
  card_number: Type.String(),
  payment_amount: Money,
  remaining_balance: Money,
});
export type GiftCardPaymentRow = Static<typeof GiftCardPaymentRow>;

/** A checkout rule holding the cart up until a code is applied (spec section 6: block reason code_required). */
export const BlockingRuleRow = Row({ cart_mod_id: Uuid, name: Type.String(), block_reason: Literals('code_required') });
export type BlockingRuleRow = Static<typeof BlockingRuleRow>;

/** One open part of a held cart's payment plan (spec section 3 scheduled payments): what is left of it, and by when. */
export const ScheduledPaymentRow = Row({ id: Uuid, due_date: Instant, amount: Money, status: Literals('upcoming', 'overdue') });
export type ScheduledPaymentRow = Static<typeof ScheduledPaymentRow>;
/** A payment the cart has taken (spec section 3 completed payments) and the gateway's record of it (gateway_audit). */
export const CompletedPaymentRow = Row({
  id: Uuid,
  occurred_date: Instant,
  amount: Money,
  status: Type.String(),
  gateway_id: Type.String(),
});
export type CompletedPaymentRow = Static<typeof CompletedPaymentRow>;
export const GatewayAuditRow = Row({ id: Uuid, occurred_on: Instant, audit_action: Type.String(), amount: Money });
export type GatewayAuditRow = Static<typeof GatewayAuditRow>;

export const CartRow = Row({
  id: Uuid,
  cart_number: Type.String(),
  state: CartState,
  seller_id: Uuid,
  identity_id: Uuid,
  ownedByPublicIdentity: Type.Boolean(),
  channel_id: Type.String(),
  campaign: NullableString(),
  expires_at: NullableInstant,
  /** seconds left of the hold; the storefront keeps its own expiry 5 s earlier (spec section 4) */
  expires_in: NullableInteger(),
  extended_at: NullableInstant,
  created_at: Instant,
  /** survey answers by ticket group id, and other additional info */
  additional_info: JsonObject,
  cart_fees: Row({ gateway_id: Literals('test', 'stripe', 'free'), account_id: Uuid, grand_totals: GrandTotalsRow }),
  items: Type.Array(CartItemRow),
  /** spec section 3 cart mods: the promo codes on the cart and what each takes off it */
  cart_mods: Type.Optional(Type.Array(CartModRow)),
  ticket_order_ids: Type.Array(Uuid),
  /** gift cards that paid part of the cart (a checkout through the ledger gateway); their payments are in total_payments */
  gift_card_payments: Type.Optional(Type.Array(GiftCardPaymentRow)),
  /** checkout rules that want a code before this cart may be paid (apply_code with one of their codes lifts them) */
  blocking_rules: Type.Optional(Type.Array(BlockingRuleRow)),
  /** a held cart on a payment plan: its open parts and what must be paid now (overdue parts and the next one) */
  scheduled_payments: Type.Optional(Type.Array(ScheduledPaymentRow)),
  amount_due_now: Type.Optional(Money),
  /** payments the cart has taken so far, and the gateways' records of them (capture, refund, dispute ...) */
  completed_payments: Type.Optional(Type.Array(CompletedPaymentRow)),
  gateway_audit: Type.Optional(Type.Array(GatewayAuditRow)),
  /** an edit cart (issue 17): the order whose tickets it moves; its total_payments count what was paid for them */
  edit_order_id: Type.Optional(Uuid),
});
export type CartRow = Static<typeof CartRow>;

// ---- answers ----

/** A cart, its tickets and what `_embed` asks for. */
export const CartAnswer = Row({
  cart: Table(CartRow),
  ticket: Table(TicketRow),
  ticket_type: Type.Optional(Table(CartTicketTypeRow)),
  ticket_group: Type.Optional(Table(CartTicketGroupRow)),
  event_template: Type.Optional(Table(CartEventTemplateRow)),
  event_session: Type.Optional(Table(CartSessionRow)),
  venue: Type.Optional(Table(CartVenueRow)),
  ticket_order: Type.Optional(Table(TicketOrderRow)),
});
export type CartAnswer = Static<typeof CartAnswer>;

export const CartDeletedAnswer = Row({ cart: Table(Row({ id: Uuid, state: Literals('cancelled') })) });
export type CartDeletedAnswer = Static<typeof CartDeletedAnswer>;

/** A gift card an order issued (a gift-card ticket bought): its number and what it holds now. */
export const IssuedGiftCardRow = Row({ ticket_id: Uuid, number: Type.String(), balance: Money, state: Type.String() });
export type IssuedGiftCardRow = Static<typeof IssuedGiftCardRow>;

/** An order and (as `_embed` asks; all when absent) its tickets and catalogue rows. */
export const OrderAnswer = Row({
  ticket_order: Table(TicketOrderRow),
  /** the gift cards the order's gift-card tickets issued (only to whoever may read the order) */
  ledger: Type.Optional(Table(IssuedGiftCardRow)),
  ticket: Type.Optional(Table(TicketRow)),
  ticket_type: Type.Optional(Table(CartTicketTypeRow)),
  ticket_group: Type.Optional(Table(CartTicketGroupRow)),
  event_template: Type.Optional(Table(CartEventTemplateRow)),
  event_session: Type.Optional(Table(CartSessionRow)),
  venue: Type.Optional(Table(CartVenueRow)),
});
export type OrderAnswer = Static<typeof OrderAnswer>;

/**
 * 202 of a checkout whose payment is still clearing (a bank debit, Stripe's `processing`): nothing is booked yet; the
 * provider's webhook books the cart when the money clears (the pending screen, /checkout/pending/{cartId}, waits for
 * the cart's `ticket_order_ids`).
 */
export const PendingPaymentAnswer = Row({
  pending_payment: Table(Row({ cart_id: Uuid, cart_number: Type.String(), status: Literals('processing') })),
});
export type PendingPaymentAnswer = Static<typeof PendingPaymentAnswer>;
/**
 * A checkout's answers: the booked order (200), the refreshed cart when a gift card paid part of it and the rest is
 * still outstanding (200, the spec's `partial` result), or the payment still clearing (202).
 */
export const checkoutAnswers = () => ({ ...answers(Type.Union([OrderAnswer, CartAnswer])), 202: PendingPaymentAnswer }) as const;

// ---- requests ----

/** An amount as the wire writes it ("12.50"), or as a shopper typed it. */
const WireAmount = Type.String({ maxLength: 20, pattern: '^-?[0-9]*([.,][0-9]*)?$' });
const Campaign = Type.Union([Text(100), Type.Null()]);
/** What a gateway is given: a card (test gateway), a confirmed intent's id (`source`), a gift card's number. */
const GatewayData = Body({
  card: Type.Optional(
    Body({
      number: Text(30),
      exp_month: Type.Union([Type.Integer({ minimum: 0, maximum: 99 }), Text(2)]),
      exp_year: Type.Union([Type.Integer({ minimum: 0, maximum: 9999 }), Text(4)]),
      cvc: Text(4),
    }),
  ),
  source: Type.Optional(Text(255)),
  /** Stripe: the PaymentMethod the Payment Element made (pm_...), charged by the server's PaymentIntent */
  payment_method: Type.Optional(Text(255)),
  /** Stripe: the wallet of the Express Checkout Element that made the PaymentMethod (spec section 4: none means a card) */
  wallet: Type.Optional(Literals('apple', 'google', 'none')),
  /** a card the logged-in shopper saved before (GET my/identity/saved_payment_method id): paid without typing it */
  saved_payment_method: Type.Optional(Uuid),
  /** a gift card's number, or the card number when the card is sent flat */
  number: Type.Optional(Text(70)),
  exp_month: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 99 }), Text(2)])),
  exp_year: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 9999 }), Text(4)])),
  cvc: Type.Optional(Text(4)),
});

const NullableUuid = Type.Union([Uuid, Type.Null()]);
/** One line to put in the cart (spec section 3 reservation line). */
export const AddLine = Body({
  event_session_id: Type.Optional(NullableUuid),
  ticket_type_id: Uuid,
  seat_id: Type.Optional(NullableUuid),
  admit_name: Type.Optional(Type.Union([Text(200), Type.Null()])),
  admit_email: Type.Optional(Type.Union([Text(254), Type.Null()])),
  /** membership lines: the member's party role of the level's rules ('member', 'child'); 'member' when absent */
  party_role: Type.Optional(Text(40, { minLength: 1 })),
  /** CityPASS groups: the visitor's CityPASS code for this ticket, of the adult or child form of the event's config */
  citypass_code: Type.Optional(Type.Union([Text(55), Type.Null()])),
  face_value: Type.Optional(Type.Union([Text(20), Type.Number(), Type.Null()])),
});
export type AddLine = Static<typeof AddLine>;
const TicketIds = Type.Array(Uuid, { maxItems: 1000 });
/** Survey answers by ticket group id (spec section 7: additional info), bare or as `{ data }`. */
const AdditionalInfo = Type.Union([Body({ data: SurveyAnswers }), SurveyAnswers]);

/** The cart update forms of spec section 7: add/remove/campaign, or create/remove.tickets/reserve. */
/** The cart update's promo code forms (spec section 7): the codes, and how refusals and benefit are treated. */
const CodeForm = Body({
  codes: Type.Array(Text(55), { maxItems: 20 }),
  ignore_errors: Type.Optional(Type.Boolean()),
  require_benefit: Type.Optional(Type.Boolean()),
});

export const ModifyBody = Body({
  add: Type.Optional(Type.Array(AddLine, { maxItems: 1000 })),
  remove: Type.Optional(Type.Union([TicketIds, Body({ tickets: TicketIds })])),
  campaign: Type.Optional(Campaign),
  channel_id: Type.Optional(Literals('web')),
  additional_info: Type.Optional(AdditionalInfo),
  create: Type.Optional(Body({ channel_id: Type.Optional(Literals('web')), campaign: Type.Optional(Campaign) })),
  reserve: Type.Optional(
    Body({
      tickets: Type.Optional(Type.Array(AddLine, { maxItems: 1000 })),
      additional_info: Type.Optional(Body({ data: Type.Optional(SurveyAnswers) })),
    }),
  ),
  /** codes applied before the tickets are added (pre-reserve codes); no benefit required unless asked */
  apply_code_before: Type.Optional(CodeForm),
  /** the seller's default code: refusals skipped and no benefit required unless asked */
  apply_code_default: Type.Optional(CodeForm),
  /** codes applied after the tickets are added, as apply_code does */
  apply_code: Type.Optional(CodeForm),
});
export type ModifyBody = Static<typeof ModifyBody>;

/** Checkout payload (spec section 3); the amount is the outstanding total the shopper saw. */
export const CheckoutBody = Type.Object(
  {
    amount: Type.Union([WireAmount, Type.Number()]),
    gateway_id: Type.String({ maxLength: 20, pattern: '^[a-z_]+$' }),
    gateway_data: Type.Optional(GatewayData),
    guest_identity_id: Type.Optional(Uuid),
    /** with guest_identity_id: the `identity_proof` of POST user's 409 email_in_use (the account's password was given
     *  in this browser within the hour), so the order is the account's */
    guest_identity_proof: Type.Optional(Type.String({ maxLength: 80, pattern: '^[0-9]{1,12}\\.[A-Za-z0-9_-]{43}$' })),
    giver_identity_id: Type.Optional(Uuid),
    send_email: Type.Optional(Type.Boolean()),
    auto_renew: Type.Optional(Type.Boolean()),
    /** the logged-in shopper keeps the card for next time (GET my/identity/saved_payment_method lists it) */
    save_payment_method: Type.Optional(Type.Boolean()),
    captcha: Type.Optional(Body({ provider: Type.Optional(Text(40)), token: Type.Optional(Text(4000)) })),
  },
  { additionalProperties: false },
);
export type CheckoutBody = Static<typeof CheckoutBody>;

/** What the cart answers embed (`_embed`), and whether cancelled tickets are listed too. */
export const CartQuery = Type.Object({
  _seller: Type.Optional(SellerRef),
  _embed: Type.Optional(Embed),
  all_tickets: Type.Optional(Type.Boolean()),
});
const OrderQuery = SellerQuery;
const OrderHeaders = Type.Object({ [ORDER_TOKEN_HEADER]: Type.Optional(Type.String({ maxLength: 64, pattern: '^[0-9a-f]*$' })) });

export const cartRoutes = {
  create: route({
    method: 'POST',
    url: '/cart/modify',
    schema: {
      summary: 'Creates a cart (and the owner cookie) and applies the update to it',
      tags: ['cart'],
      querystring: CartQuery,
      body: ModifyBody,
      response: answers(CartAnswer),
    },
  }),
  modify: route({
    method: 'POST',
    url: '/cart/:id/modify',
    schema: {
      summary: 'Removals, additions and survey answers on a pending cart of the caller, atomically',
      tags: ['cart'],
      params: IdParams,
      querystring: CartQuery,
      body: ModifyBody,
      response: answers(CartAnswer),
    },
  }),
  remove: route({
    method: 'POST',
    url: '/cart/:id/remove',
    schema: {
      summary: 'Removes tickets from the cart',
      tags: ['cart'],
      params: IdParams,
      querystring: CartQuery,
      body: Body({ tickets: TicketIds }),
      response: answers(CartAnswer),
    },
  }),
  get: route({
    method: 'GET',
    url: '/cart/:id',
    schema: {
      summary: 'The cart, its tickets and totals; a hold that is up is released first',
      tags: ['cart'],
      params: IdParams,
      querystring: Type.Object({ ...CartQuery.properties, _limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }),
      response: answers(CartAnswer),
    },
  }),
  delete: route({
    method: 'DELETE',
    url: '/cart/:id',
    schema: { summary: 'Cancels the cart and releases its holds', tags: ['cart'], params: IdParams, response: answers(CartDeletedAnswer) },
  }),
  extend: route({
    method: 'PATCH',
    url: '/my/cart/:id',
    schema: {
      summary: 'The one extension of the hold (spec section 9: 2 minutes)',
      tags: ['cart'],
      params: IdParams,
      querystring: CartQuery,
      body: Body({ expires_at: Type.Optional(DateOrDateTime) }),
      response: answers(CartAnswer),
    },
  }),
  guestCheckout: route({
    method: 'POST',
    url: '/cart/:id/guest_checkout',
    schema: {
      summary: 'Pays the outstanding amount and books the cart; answers the order',
      tags: ['cart'],
      params: IdParams,
      body: CheckoutBody,
      response: checkoutAnswers(),
    },
  }),
  pay: route({
    method: 'POST',
    url: '/cart/:id/pay',
    schema: {
      summary: 'Pays the outstanding amount and books the cart (logged in); answers the order',
      tags: ['cart'],
      params: IdParams,
      body: CheckoutBody,
      response: checkoutAnswers(),
    },
  }),
  order: route({
    method: 'GET',
    url: '/ticket_order/:id',
    schema: {
      summary: 'An order of the caller, or of the holder of its access token (query or X-Order-Access-Token)',
      tags: ['orders'],
      params: IdParams,
      querystring: Type.Object({ ...OrderQuery.properties, _embed: Type.Optional(Embed) }),
      headers: OrderHeaders,
      response: answers(OrderAnswer),
    },
  }),
  orderQr: route({
    method: 'GET',
    url: '/ticket_order/:id/qrcode',
    schema: {
      summary: "The order's QR code: the order number and the scan codes of its valid tickets",
      tags: ['orders'],
      params: IdParams,
      querystring: OrderQuery,
      headers: OrderHeaders,
      response: { 200: Binary('image/png', 'a PNG image'), '4xx': answers(Type.Null())['4xx'] },
      produces: ['image/png'],
    },
  }),
};

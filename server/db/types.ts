import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Row types, one per table of migrations/. Money is integer minor units; times are Date. */
type Json<T = unknown> = ColumnType<T, T | string, T | string>;
type Ts = ColumnType<Date, Date | string, Date | string>;
type TsDefault = ColumnType<Date, Date | string | undefined, Date | string>;
type Uuid = Generated<string>;

export interface SellerTable {
  id: Uuid;
  slug: string;
  name: string;
  currency: Generated<string>;
  timezone: Generated<string>;
  config: Json<Record<string, any>>;
  strings: Json<Record<string, string>>;
  content_blocks: Json<ContentBlock[]>;
  public_identity_id: string | null;
  /** signs the manage links of order e-mails (migration 012); never leaves the server */
  manage_link_secret: Generated<string>;
  created_at: TsDefault;
  updated_at: TsDefault;
}
export interface ContentBlock {
  name: string;
  slot: string;
  routes: string[];
  roles: string[];
  html: string;
  order?: number;
}

export interface VenueTable {
  id: Uuid;
  seller_id: string;
  key: string;
  name: string;
  timezone: string;
  address: Json<Record<string, any>>;
}
export interface ImageTable {
  id: Uuid;
  seller_id: string;
  key: string;
  content_type: string;
  width: number | null;
  height: number | null;
  data: Uint8Array;
  sha256: string;
}
export interface SeatMapTable {
  id: Uuid;
  seller_id: string;
  key: string;
  name: string;
  width: number;
  height: number;
  other_elements: Generated<string>;
  map_geometry: Json<Record<string, any>>;
}
export interface SeatTable {
  id: Uuid;
  seat_map_id: string;
  name: string;
  section: string;
  row_label: string;
  /** the seat's number within its row ('7' of 'ORCH-C7') */
  number: string | null;
  x: number;
  y: number;
  r: number;
  previous_seat: string | null;
  next_seat: string | null;
  ticket_group_keys: Json<string[]>;
  unavailable: Generated<boolean>;
}
export type HiddenType = 'public_browsable' | 'public_member_only' | 'public_link_only' | 'hidden';
export interface EventTemplateTable {
  id: Uuid;
  seller_id: string;
  key: string;
  venue_id: string | null;
  seat_map_id: string | null;
  name: string;
  category: Generated<string>;
  subtitle: string | null;
  summary: string | null;
  description: string | null;
  event_type: 'single' | 'repeating' | 'other';
  hidden_type: Generated<HiddenType>;
  _rank: Generated<number>;
  config: Json<Record<string, any>>;
  meta: Json<Record<string, any>>;
  metadata: Json<Record<string, string>>;
}
export type Handler = 'tickets' | 'passes' | 'codes' | 'seated' | 'ledger' | 'donation' | 'membership' | 'citypass';
export interface TicketGroupTable {
  id: Uuid;
  seller_id: string;
  event_template_id: string;
  key: string;
  name: string;
  description: string | null;
  summary: string | null;
  color: string | null;
  handler: Handler;
  hidden_type: Generated<string>;
  _rank: Generated<number>;
  min_tickets_per_order: Generated<number>;
  max_tickets_per_order: Generated<number>;
  capacity: Generated<number>;
  oversell_capacity: Generated<number>;
  used_capacity: Generated<number>;
  exclude_from_event_capacity: Generated<boolean>;
  flexible: Generated<boolean>;
  sales_start: Ts | null;
  sales_end: Ts | null;
  start_policy: string | null;
  start_policy_date: Ts | null;
  duration_new: string | null;
  additional_info_spec: Json<Record<string, any>> | null;
  meta: Json<Record<string, any>>;
  config: Json<Record<string, any>>;
}
export interface TicketTypeTable {
  id: Uuid;
  seller_id: string;
  ticket_group_id: string;
  key: string;
  name: string;
  _rank: Generated<number>;
  summary: string | null;
  description: string | null;
  price: number;
  price_min: number | null;
  price_max: number | null;
  discounted_price: number | null;
  outside_fees: Json<OutsideFee[]>;
  member_only: Generated<boolean>;
  meta: Json<Record<string, any>>;
}
export interface OutsideFee {
  name: string;
  fixed?: number;
  percent?: number;
}
export interface TicketRuleTable {
  id: Uuid;
  ticket_group_id: string;
  ticket_type_id: string | null;
  party_role: Generated<string>;
  named: Generated<'yes' | 'no' | 'optional'>;
  emailed: Generated<boolean>;
  min: Generated<number>;
  max: Generated<number>;
}
export interface MessageRuleTable {
  id: Uuid;
  event_template_id: string;
  _rank: Generated<number>;
  triggers: Json<any>;
  actions: Json<any>;
}
export interface EventSessionTable {
  id: Uuid;
  seller_id: string;
  event_template_id: string;
  start_datetime: Ts;
  end_datetime: Ts;
  capacity: Generated<number>;
  oversell_capacity: Generated<number>;
  used_capacity: Generated<number>;
  price_increase: Generated<number>;
  annotations: Json<string[]>;
  state: Generated<string>;
}
export interface SessionTicketGroupTable {
  event_session_id: string;
  ticket_group_id: string;
  capacity: Generated<number>;
  oversell_capacity: Generated<number>;
  used_capacity: Generated<number>;
}

export interface IdentityTable {
  id: Uuid;
  seller_id: string;
  is_public: Generated<boolean>;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  address_more: string | null;
  city: string | null;
  state: string | null;
  region: string | null;
  country: string | null;
  zip_code: string | null;
  additional_info: Json<Record<string, any>>;
  meta: Json<Record<string, any>>;
  created_at: TsDefault;
}
export interface AppUserTable {
  id: Uuid;
  seller_id: string;
  identity_id: string;
  email: string;
  password_hash: string | null;
  created_at: TsDefault;
  /** a user the server shows staff previews as (migration 020): never logged in to */
  preview_role: Generated<string | null>;
}
/** Support staff of a seller (migration 020), from the seller folder's staff.json. */
export interface StaffTable {
  id: Uuid;
  seller_id: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: TsDefault;
}
export interface StaffSessionTable {
  token_hash: string;
  staff_id: string;
  seller_id: string;
  /** the preview the staff member looks through (server/services/staff.ts StaffPreview), or null */
  preview: ColumnType<unknown, string | null, string | null>;
  created_at: TsDefault;
  expires_at: Date;
}
export interface AuthSessionTable {
  token_hash: string;
  seller_id: string;
  user_id: string;
  created_at: TsDefault;
  expires_at: Ts;
  /** a session begun at the identity provider: its ID token, the id_token_hint of the provider's logout (migration 022) */
  sso_id_token: Generated<string | null>;
}
export interface LoginTokenTable {
  id: Uuid;
  seller_id: string;
  kind: 'otp' | 'password_reset' | 'email_link';
  email: string;
  token_hash: string;
  code_hash: string | null;
  attempts: Generated<number>;
  created_at: TsDefault;
  expires_at: Ts;
  used_at: Ts | null;
}
/** A single sign-on login waiting for its return leg (migration 017); keyed by the sha256 of its state. */
export interface SsoAttemptTable {
  state_hash: string;
  seller_id: string;
  code_verifier: string;
  nonce: string;
  return_path: string;
  cart_id: string | null;
  created_at: TsDefault;
  expires_at: Ts;
}
/** An upper bound of what the carts of one address hold in one session or sessionless group (migration 018). */
export interface HoldTallyTable {
  address_hash: string;
  scope_id: string;
  held: Generated<number>;
}
export interface RateLimitTable {
  key: string;
  window_start: Ts;
  count: Generated<number>;
}
export type CartState = 'pending' | 'checking_out' | 'completed' | 'expired' | 'cancelled';
export interface CartTable {
  id: Uuid;
  seller_id: string;
  cart_number: ColumnType<string, never, never>;
  state: Generated<CartState>;
  identity_id: string;
  owner_token_hash: string | null;
  /** sha256 of the address that started the cart (migration 005), for the hold limits per address. */
  address_hash: string | null;
  channel_id: Generated<string>;
  campaign: string | null;
  expires_at: Ts | null;
  extended_at: Ts | null;
  auto_renew: Generated<boolean>;
  giftee_identity_id: string | null;
  additional_info: Json<Record<string, any>>;
  created_at: TsDefault;
  updated_at: TsDefault;
  /** an edit cart (migration 030): the order whose booked tickets its tickets replace; one open edit per order */
  edit_order_id: Generated<string | null>;
}
/** A link that hands a cart to another browser (migration 035): the sha256 of its token, once, until it expires. */
export interface CartTransferTable {
  token_hash: string;
  cart_id: string;
  created_at: TsDefault;
  expires_at: Ts;
  used_at: Ts | null;
}
export type TicketState = 'in_cart' | 'held' | 'booked' | 'redeemed' | 'cancelled' | 'unbooked';
/** A ticket in these states holds what it took (capacity, a member benefit, a seat, a CityPASS code): the predicate of
 *  the unique indexes ticket_session_seat_uq and ticket_citypass_code_uq. */
export const LIVE_TICKET_STATES = ['in_cart', 'held', 'booked', 'redeemed'] as const satisfies readonly TicketState[];
export interface TicketTable {
  id: Uuid;
  seller_id: string;
  cart_id: string | null;
  ticket_order_id: string | null;
  event_template_id: string;
  event_session_id: string | null;
  ticket_group_id: string;
  ticket_type_id: string;
  state: TicketState;
  handler: string;
  valid_from: Ts | null;
  valid_to: Ts | null;
  admit_name: string | null;
  admit_email: string | null;
  face_value: number;
  adjusted_value: number;
  fees: Generated<number>;
  scan_code: string | null;
  seat_id: string | null;
  /** the CityPASS code a CityPASS ticket was reserved with, upper case; one live ticket per code (migration 021) */
  citypass_code: Generated<string | null>;
  additional_info: Json<Record<string, any>>;
  handler_data: Json<Record<string, any>>;
  /** the membership whose benefit this ticket uses (migration 006) */
  membership_id: string | null;
  /** the discount the cart's promo codes give this ticket, minor units; adjusted_value is after it (migration 014) */
  cartmod_amount: Generated<number>;
  /** the cart mod that gives it (migration 014) */
  cart_mod_id: Generated<string | null>;
  /** a ticket of an edit cart: the booked ticket of the order it replaces (a reschedule; migration 030) */
  replaces_ticket_id: Generated<string | null>;
  created_at: TsDefault;
}
export interface TicketOrderTable {
  id: Uuid;
  seller_id: string;
  order_number: ColumnType<string, never, never>;
  identity_id: string;
  cart_id: string;
  purchased_on: TsDefault;
  total_before_fees: Generated<number>;
  total_fees: Generated<number>;
  total_discount: Generated<number>;
  total_after_fees: Generated<number>;
  state: Generated<string>;
  access_token_hash: string | null;
}
export interface PaymentTable {
  id: Uuid;
  seller_id: string;
  cart_id: string;
  ticket_order_id: string | null;
  gateway_id: 'free' | 'ledger' | 'test' | 'stripe';
  amount: number;
  status: PaymentStatus;
  audit_action: Generated<string>;
  gateway_ref: string | null;
  idempotency_key: string;
  occurred_on: TsDefault;
  updated_at: TsDefault;
  /** Whom the order is for once the attempt books (migration 004). */
  order_identity_id: string | null;
  send_email: Generated<boolean>;
}
/** A payment attempt's life (migration 004-record-payment-attempts). */
export type PaymentStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'refund_pending' | 'refunded';
/** The built-in test gateway's provider-side record of a charge. */
export interface TestGatewayChargeTable {
  ref: string;
  idempotency_key: string;
  amount: number;
  currency: string;
  status: 'requires_action' | 'succeeded' | 'refunded';
  created_at: TsDefault;
  refunded_at: Ts | null;
}
/** The test gateway's record of a refund of (part of) a charge, once per idempotency key (migration 030). */
export interface TestGatewayRefundTable {
  idempotency_key: string;
  ref: string;
  amount: number;
  created_at: TsDefault;
}
/**
 * What a cancellation gives back (migration 030): one row per payment it is taken from, written in the transaction that
 * cancels the tickets, paid out through that payment's gateway afterwards under its own idempotency key.
 */
export interface OrderRefundTable {
  id: Uuid;
  seller_id: string;
  ticket_order_id: string;
  payment_id: string;
  gateway_id: 'free' | 'ledger' | 'test' | 'stripe';
  amount: number;
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  idempotency_key: string;
  ticket_ids: Json<string[]>;
  last_error: string | null;
  created_at: TsDefault;
  updated_at: TsDefault;
}
export interface ScheduledPaymentTable {
  id: Uuid;
  cart_id: string;
  due: Ts;
  amount: number;
  status: Generated<string>;
}
export interface WebhookEventTable {
  id: string;
  provider: string;
  received_at: TsDefault;
}
export interface MembershipProgramTable {
  id: Uuid;
  seller_id: string;
  key: string;
  name: string;
  _rank: Generated<number>;
}
export interface RoleTable {
  id: Uuid;
  seller_id: string;
  membership_program_id: string;
  key: string;
  name: string;
  _rank: Generated<number>;
  ticket_type_id: string | null;
  duration_months: Generated<number>;
  giftable: Generated<boolean>;
  auto_renew: Generated<boolean>;
  member_event_purchase_limit: Generated<number>;
  benefits: Json<any[]>;
}
export interface MembershipRuleTable {
  id: Uuid;
  seller_id: string;
  role_id: string;
  ticket_type_id: string | null;
  ticket_group_id: string | null;
  party_role: Generated<string>;
  named: Generated<'yes' | 'no'>;
  min: Generated<number>;
  max: Generated<number>;
}
export interface MembershipTable {
  id: Uuid;
  seller_id: string;
  identity_id: string | null;
  role_id: string;
  membership_program_id: string;
  ticket_order_id: string | null;
  ticket_id: string | null;
  ticket_group_id: string | null;
  event_template_id: string | null;
  scan_code: string;
  zip_code: string | null;
  valid_from: Ts;
  valid_to: Ts;
  auto_renew_state: Generated<'scheduled' | 'cancelled' | 'other'>;
  member_event_purchase_limit: Generated<number>;
  state: Generated<string>;
  created_at: TsDefault;
  /** migration 006 */
  members: ColumnType<MemberEntry[], MemberEntry[] | string | undefined, MemberEntry[] | string>;
  renewed_from_id: string | null;
  renew_attempted_at: Ts | null;
  renew_failures: Generated<number>;
  payment_method_id: string | null;
}
/** One person a membership covers: the level's party role and, where the rule names them, the name. */
export interface MemberEntry {
  party_role: string;
  name: string | null;
}
export interface TestGatewayMethodTable {
  token: string;
  number: string;
  exp_month: number;
  exp_year: number;
  created_at: TsDefault;
}
export interface PaymentMethodTable {
  id: Uuid;
  seller_id: string;
  identity_id: string;
  gateway_id: string;
  token: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  created_at: TsDefault;
}
/** The provider's customer a gateway keeps an identity's cards under (a Stripe Customer; migration 016). */
export interface GatewayCustomerTable {
  seller_id: string;
  identity_id: string;
  gateway_id: string;
  customer_ref: string;
  created_at: TsDefault;
}
export interface GiftCodeTable {
  id: Uuid;
  seller_id: string;
  code: string;
  role_id: string;
  ticket_order_id: string | null;
  giver_identity_id: string | null;
  giftee_identity_id: string | null;
  valid_from: Ts;
  valid_to: Ts;
  redeemed_at: Ts | null;
  redeemed_membership_id: string | null;
  /** who the gift covers, as the giver named them (migration 006) */
  membership_members: ColumnType<MemberEntry[], MemberEntry[] | string | undefined, MemberEntry[] | string>;
}
export interface CartModTable {
  id: Uuid;
  seller_id: string;
  key: string;
  name: string;
  discount_type: 'percent' | 'amount' | 'price';
  discount_value: number;
  ticket_type_ids: Json<string[]>;
  blocking_checkout: Generated<boolean>;
  resource: string | null;
  resource_id: string | null;
  activating_code_groups: Json<string[]>;
}
export interface PromoCodeTable {
  id: Uuid;
  seller_id: string;
  code: string;
  cart_mod_id: string;
  code_group: string | null;
  max_usage: Generated<number>;
  used: Generated<number>;
  valid_from: Ts | null;
  valid_to: Ts | null;
  advertise: Generated<boolean>;
  is_default: Generated<boolean>;
}
export interface CartCodeTable {
  cart_id: string;
  promo_code_id: string;
  applied_at: TsDefault;
  /** the cart holds one use of the code (migration 014): given back when the cart expires or is cancelled */
  use_held: Generated<boolean>;
}
export interface LedgerTable {
  id: Uuid;
  seller_id: string;
  ledger_type: Generated<string>;
  number: string;
  balance: number;
  state: Generated<string>;
  currency: string;
  ticket_id: string | null;
  created_at: TsDefault;
}
export interface LedgerEntryTable {
  id: Uuid;
  ledger_id: string;
  amount: number;
  reason: string;
  cart_id: string | null;
  payment_id: string | null;
  /** the payment attempt's key (plus ':refund' for a credit): one entry per key (migration 023) */
  idempotency_key: string | null;
  created_at: TsDefault;
}
/** One part of a held cart's payment plan (migration 024): what is owed by when. */
export interface PaymentScheduleTable {
  id: Uuid;
  seller_id: string;
  cart_id: string;
  due_on: Date;
  amount: number;
  created_at: TsDefault;
}
export interface MailOutboxTable {
  id: Uuid;
  seller_id: string | null;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  meta: Json<Record<string, any>>;
  created_at: TsDefault;
  sent_at: Ts | null;
  attempts: Generated<number>;
  last_error: string | null;
}

export interface Database {
  seller: SellerTable;
  venue: VenueTable;
  image: ImageTable;
  seat_map: SeatMapTable;
  seat: SeatTable;
  event_template: EventTemplateTable;
  ticket_group: TicketGroupTable;
  ticket_type: TicketTypeTable;
  ticket_rule: TicketRuleTable;
  message_rule: MessageRuleTable;
  event_session: EventSessionTable;
  session_ticket_group: SessionTicketGroupTable;
  identity: IdentityTable;
  app_user: AppUserTable;
  auth_session: AuthSessionTable;
  staff: StaffTable;
  staff_session: StaffSessionTable;
  login_token: LoginTokenTable;
  sso_attempt: SsoAttemptTable;
  rate_limit: RateLimitTable;
  hold_tally: HoldTallyTable;
  cart: CartTable;
  cart_transfer: CartTransferTable;
  ticket: TicketTable;
  ticket_order: TicketOrderTable;
  payment: PaymentTable;
  test_gateway_charge: TestGatewayChargeTable;
  test_gateway_refund: TestGatewayRefundTable;
  order_refund: OrderRefundTable;
  scheduled_payment: ScheduledPaymentTable;
  webhook_event: WebhookEventTable;
  membership_program: MembershipProgramTable;
  role: RoleTable;
  membership_rule: MembershipRuleTable;
  membership: MembershipTable;
  payment_method: PaymentMethodTable;
  test_gateway_method: TestGatewayMethodTable;
  gateway_customer: GatewayCustomerTable;
  gift_code: GiftCodeTable;
  cart_mod: CartModTable;
  promo_code: PromoCodeTable;
  cart_code: CartCodeTable;
  ledger: LedgerTable;
  ledger_entry: LedgerEntryTable;
  payment_schedule: PaymentScheduleTable;
  mail_outbox: MailOutboxTable;
}

export type Seller = Selectable<SellerTable>;
export type EventTemplate = Selectable<EventTemplateTable>;
export type TicketGroup = Selectable<TicketGroupTable>;
export type TicketType = Selectable<TicketTypeTable>;
export type EventSession = Selectable<EventSessionTable>;
export type NewEventSession = Insertable<EventSessionTable>;
export type CartUpdate = Updateable<CartTable>;
export type Cart = Selectable<CartTable>;
export type Ticket = Selectable<TicketTable>;
export type TicketOrder = Selectable<TicketOrderTable>;
export type Payment = Selectable<PaymentTable>;
export type OrderRefund = Selectable<OrderRefundTable>;
export type Membership = Selectable<MembershipTable>;
export type Role = Selectable<RoleTable>;

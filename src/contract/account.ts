import { Type, type Static, type TProperties } from 'typebox';
import { answers, route } from './answers';
import { ErrorBody } from './errors';
import {
  Body,
  Embed,
  FlatInfo,
  IdParams,
  Instant,
  Json,
  JsonObject,
  Literals,
  NullableString,
  Row,
  SellerQuery,
  SellerRef,
  Text,
  Uuid,
} from './primitives';
import { Table } from './tables';
import {
  CartEventTemplateRow,
  CartSessionRow,
  CartTicketGroupRow,
  CartTicketTypeRow,
  CartVenueRow,
  TicketOrderRow,
  TicketRow,
} from './cart';

/** Accounts: login (password, member id, passcode, single sign-on), logout, password reset, resending orders, the account area (my/*). */

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** A uuid or null (a reference that may be missing). */
const NullableUuid = NullableString({ pattern: `^${UUID}$` });

// ---- rows ----

/** GET my/user `user`: the login. `email` is null for users without a real address (the no-email marker). */
export const UserRow = Row({
  id: Uuid,
  seller_id: Uuid,
  identity_id: Uuid,
  email: NullableString(),
  has_email: Type.Boolean(),
  has_password: Type.Boolean(),
});
export type UserRow = Static<typeof UserRow>;

/** GET my/user `identity`: the purchaser's details (spec section 5); `meta` only with `_embed=identity.meta`. */
export const IdentityRow = Row({
  id: Uuid,
  first_name: NullableString(),
  last_name: NullableString(),
  email: NullableString(),
  phone: NullableString(),
  address: NullableString(),
  address_more: NullableString(),
  city: NullableString(),
  state: NullableString(),
  region: NullableString(),
  country: NullableString(),
  zip_code: NullableString(),
  /** the seller's survey answers about the person */
  additional_info: JsonObject,
  meta: Type.Optional(JsonObject),
});
export type IdentityRow = Static<typeof IdentityRow>;

/** POST user: the guest purchaser's identity, as stored (trimmed). */
export const GuestIdentityRow = Row({
  id: Uuid,
  identity_id: Uuid,
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
});
export type GuestIdentityRow = Static<typeof GuestIdentityRow>;

/** GET my/order_session: one session the user holds tickets for, with how many and from which orders. */
export const OrderSessionRow = Row({
  id: Uuid,
  event_template_id: Uuid,
  name: NullableString(),
  start_datetime: Instant,
  end_datetime: Instant,
  /** the venue's; null without a venue */
  timezone: NullableString(),
  ticket_count: Type.Integer({ minimum: 0 }),
  ticket_order_ids: Type.Array(Uuid),
});
export type OrderSessionRow = Static<typeof OrderSessionRow>;

/** GET my/membership (spec section 3, Membership). `validFrom`/`validTo` repeat `valid_from`/`valid_to` for older storefronts. */
export const MembershipRow = Row({
  id: Uuid,
  scan_code: Type.String(),
  role_id: Uuid,
  membership_program_id: Uuid,
  state: Type.String(),
  auto_renew_state: Literals('scheduled', 'cancelled', 'other'),
  valid_from: Instant,
  valid_to: Instant,
  validFrom: Instant,
  validTo: Instant,
  member_event_purchase_limit: Type.Integer(),
  ticket_order_id: NullableUuid,
  ticket_id: NullableUuid,
  ticket_group_id: NullableUuid,
  event_template_id: NullableUuid,
  identity_id: NullableUuid,
  /** the role's benefits, as the seller wrote them */
  benefits: Type.Array(Json),
  /** who the membership covers: one entry per member, with the name when the level's rule names them */
  members: Type.Array(Row({ party_role: Type.String(), name: NullableString() })),
});
export type MembershipRow = Static<typeof MembershipRow>;

export const RoleRow = Row({
  id: Uuid,
  name: Type.String(),
  _rank: Type.Integer(),
  membership_program_id: Uuid,
  ticket_type_id: NullableUuid,
  duration_months: Type.Integer(),
  giftable: Type.Boolean(),
  auto_renew: Type.Boolean(),
  member_event_purchase_limit: Type.Integer(),
  benefits: Type.Array(Json),
});
export type RoleRow = Static<typeof RoleRow>;

export const MembershipProgramRow = Row({ id: Uuid, name: Type.String(), _rank: Type.Integer() });
export type MembershipProgramRow = Static<typeof MembershipProgramRow>;

// ---- answers ----

/** GET my/user, PATCH and PUT my/user, and every login: the user and its identity. */
export const UserAnswer = Row({ user: Table(UserRow), identity: Table(IdentityRow) });
export type UserAnswer = Static<typeof UserAnswer>;

/** POST login/request_otp: the token the passcode goes with, and its lifetime in seconds. */
export const OtpRequestAnswer = Row({ token: Type.String(), expires_in: Type.Integer({ minimum: 0 }) });
export type OtpRequestAnswer = Static<typeof OtpRequestAnswer>;

export const LogoutAnswer = Row({
  logout: Table(
    Row({
      logged_out: Type.Literal(true),
      /** a session begun at the identity provider: where the browser goes next to end the provider's session too */
      end_session_url: Type.Optional(Type.String({ format: 'uri' })),
    }),
  ),
});
export type LogoutAnswer = Static<typeof LogoutAnswer>;

export const GuestIdentityAnswer = Row({ identity: Table(GuestIdentityRow) });
export type GuestIdentityAnswer = Static<typeof GuestIdentityAnswer>;

/** POST password_reset/request: the same answer whether or not the address has an account. */
export const PasswordResetRequestAnswer = Row({ password_reset: Table(Row({ requested: Type.Literal(true) })) });
export type PasswordResetRequestAnswer = Static<typeof PasswordResetRequestAnswer>;

/** POST password_reset/validate and /reset: the e-mail of the account the token resets. */
export const ResetIdentityAnswer = Row({ identity: Table(Row({ email: Type.String() })) });
export type ResetIdentityAnswer = Static<typeof ResetIdentityAnswer>;

/** POST ticket_order/resend and my/ticket_order/resend: no rows; `_count` is how many order mails went out. */
export const ResendAnswer = Row({
  ticket_order: Row({ _data: Type.Array(Type.Never(), { maxItems: 0 }), _count: Type.Integer({ minimum: 0 }) }),
});
export type ResendAnswer = Static<typeof ResendAnswer>;

/** The catalogue rows a my/* read embeds (`_embed`, by the last part of each name: `ticket.ticket_type` is `ticket_type`). */
const catalogueEmbeds = {
  ticket_type: Type.Optional(Table(CartTicketTypeRow)),
  ticket_group: Type.Optional(Table(CartTicketGroupRow)),
  event_template: Type.Optional(Table(CartEventTemplateRow)),
  event_session: Type.Optional(Table(CartSessionRow)),
  venue: Type.Optional(Table(CartVenueRow)),
};

/** GET my/ticket_order: the user's orders, newest first; `_count` counts them all. */
export const MyOrdersAnswer = Row({ ticket_order: Table(TicketOrderRow), ticket: Type.Optional(Table(TicketRow)), ...catalogueEmbeds });
export type MyOrdersAnswer = Static<typeof MyOrdersAnswer>;

/** GET my/order_session: sessions of the user's tickets, soonest first; `_count` counts them all. */
export const MySessionsAnswer = Row({ order_session: Table(OrderSessionRow), ticket: Type.Optional(Table(TicketRow)), ...catalogueEmbeds });
export type MySessionsAnswer = Static<typeof MySessionsAnswer>;

/** GET my/membership: the user's memberships, newest term first, and what `_embed` asks for. */
export const MyMembershipsAnswer = Row({
  membership: Table(MembershipRow),
  role: Type.Optional(Table(RoleRow)),
  membership_program: Type.Optional(Table(MembershipProgramRow)),
  ticket_order: Type.Optional(Table(TicketOrderRow)),
  ticket: Type.Optional(Table(TicketRow)),
  ...catalogueEmbeds,
});
export type MyMembershipsAnswer = Static<typeof MyMembershipsAnswer>;

// ---- requests ----

const Str = (maxLength: number) => Text(maxLength);
const Opt = (maxLength: number) => Type.Optional(Str(maxLength));
/**
 * A password: any characters, so that the service's rule (spec section 5: printable only) answers with its own
 * message; it is hashed, never stored or shown.
 */
const Password = (required = false) => (required ? Type.String({ maxLength: 1024 }) : Type.Optional(Type.String({ maxLength: 1024 })));
/** A text field that may be cleared with null. */
const NullableText = (maxLength: number) => Type.Optional(Type.Union([Text(maxLength), Type.Null()]));
/** Answers about the person (spec section 5: additional info): flat and closed. */
const AdditionalInfo = Type.Optional(FlatInfo);

/** The login payload of spec section 3; `method` picks the mode, the service says which fields it needs. */
export const LoginBody = Body({
  method: Opt(40),
  username: Opt(254),
  email: Opt(254),
  password: Password(),
  scan_code: Opt(100),
  zip_code: Opt(20),
  last_name: Opt(100),
  otp: Opt(20),
  token: Opt(100),
  cart_id: Opt(40),
  state: Opt(100),
});
export type LoginBody = Static<typeof LoginBody>;

/** PATCH and PUT my/user: the fields present are changed; a null clears an optional one. */
export const ProfileBody = Body({
  id: Type.Optional(Uuid),
  identity_id: Type.Optional(Uuid),
  first_name: Opt(200),
  last_name: Opt(200),
  email: Opt(400),
  email_confirm: Opt(400),
  password: Password(),
  phone: NullableText(200),
  address: NullableText(2000),
  address_more: NullableText(2000),
  city: NullableText(2000),
  state: NullableText(2000),
  region: NullableText(2000),
  country: NullableText(2000),
  zip_code: NullableText(200),
  additional_info: AdditionalInfo,
});
export type ProfileBody = Static<typeof ProfileBody>;

/** POST user: the guest purchaser's details. */
export const GuestIdentityBody = Type.Object(
  {
    first_name: Str(200),
    last_name: Str(200),
    email: Str(400),
    email_confirm: Opt(400),
    phone: NullableText(200),
    zip_code: NullableText(200),
    zip: NullableText(200),
    address: NullableText(2000),
    address_more: NullableText(2000),
    city: NullableText(2000),
    state: NullableText(2000),
    region: NullableText(2000),
    country: NullableText(2000),
    additional_info: AdditionalInfo,
    /** creates an account with this password for the purchaser's e-mail (spec section 5 strength rules); when the
     *  e-mail has an account already: 401 guest_account (no password yet: a set-password link is mailed),
     *  401 incorrect_password, or 409 email_in_use (the right password: log in instead) */
    password: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: false },
);
export type GuestIdentityBody = Static<typeof GuestIdentityBody>;

/** The account area's reads: paging and `_embed`. */
const myQuery = <P extends TProperties>(extra: P) =>
  Type.Object({
    _seller: Type.Optional(SellerRef),
    _embed: Type.Optional(Embed),
    _limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    _offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    ...extra,
  });
const MyQuery = myQuery({});
const TicketStates = '(booked|redeemed|cancelled|unbooked)';

/**
 * GET sso/callback's failures, sent back to the storefront's login path as `auth_error` (a code, never English; the
 * storefront shows 'SFEC Authentication failed'): the provider could not be reached, its return was not the one this
 * browser started (or came twice, or too late), it said no, the seller no longer logs in this way, the code or ID
 * token did not check out (nonce included), or the e-mail is missing or not verified.
 */
export const SsoAuthError = Literals(
  'sso_unavailable',
  'sso_state_invalid',
  'sso_provider_error',
  'sso_not_configured',
  'sso_token_failed',
  'sso_email_unverified',
);
export type SsoAuthError = Static<typeof SsoAuthError>;

/** The answers of a 302 to another site. */
const redirect = (description: string) => ({ 302: Type.Null({ description }), '4xx': ErrorBody, '5xx': ErrorBody }) as const;

export const accountRoutes = {
  login: route({
    method: 'POST',
    url: '/login',
    schema: {
      summary: "Logs in (password, member id or passcode, as the seller's mode allows): a new session cookie; answers like GET my/user",
      tags: ['account'],
      querystring: SellerQuery,
      body: LoginBody,
      response: answers(UserAnswer),
    },
  }),
  ssoStart: route({
    method: 'GET',
    url: '/sso/start',
    schema: {
      summary:
        "Single sign-on (methods sso and hosted, OpenID Connect): redirects to the seller's identity provider with PKCE, state and nonce; `redirect` (a path of this storefront only) and `cart_id` are kept for the return",
      tags: ['account'],
      querystring: Type.Object({ _seller: Type.Optional(SellerRef), redirect: Opt(500), cart_id: Opt(40) }),
      response: redirect(
        "to the identity provider's authorisation endpoint (Location), with a state cookie for the return; to the login path with auth_error=sso_unavailable when the provider cannot be reached",
      ),
    },
  }),
  ssoCallback: route({
    method: 'GET',
    url: '/sso/callback',
    schema: {
      summary:
        "Single sign-on's return from the identity provider: checks state (against this browser's cookie) and nonce, exchanges the code, logs in the user of the verified e-mail (the session cookie; the cart given at start becomes theirs) and redirects to the path given at start; any failure redirects to the login path with auth_error",
      tags: ['account'],
      // Providers add parameters of their own (session_state, iss): any more are allowed.
      querystring: Type.Object({
        code: Opt(2000),
        state: Opt(200),
        error: Opt(200),
        error_description: Opt(2000),
        iss: Opt(2000),
      }),
      response: redirect('to the path given at start, logged in; or to the login path with auth_error (SsoAuthError)'),
    },
  }),
  requestOtp: route({
    method: 'POST',
    url: '/login/request_otp',
    schema: {
      summary: 'Mails a passcode and a one-time link; the same answer whether or not the address has an account',
      tags: ['account'],
      querystring: SellerQuery,
      body: Body({ email: Str(254), state: Opt(100), provider: Opt(40) }),
      response: answers(OtpRequestAnswer),
    },
  }),
  otpVerify: route({
    method: 'POST',
    url: '/login/otp_verify',
    schema: {
      summary: 'Logs in with the token of request_otp and the mailed passcode (3 tries); answers like GET my/user',
      tags: ['account'],
      querystring: SellerQuery,
      body: Body({ token: Str(100), otp: Str(20), state: Opt(100), cart_id: Opt(40) }),
      response: answers(UserAnswer),
    },
  }),
  logout: route({
    method: 'POST',
    url: '/logout',
    schema: {
      summary: 'Ends the session server-side and clears the session cookie',
      tags: ['account'],
      querystring: SellerQuery,
      response: answers(LogoutAnswer),
    },
  }),
  guestIdentity: route({
    method: 'POST',
    url: '/user',
    schema: {
      summary: "The guest purchaser's identity (spec section 5 rules), bound to this browser; the checkout refers to it by id",
      tags: ['account'],
      querystring: SellerQuery,
      body: GuestIdentityBody,
      response: answers(GuestIdentityAnswer),
    },
  }),
  passwordResetRequest: route({
    method: 'POST',
    url: '/password_reset/request',
    schema: {
      summary: 'Mails a password reset link when the address has an account; the same answer either way',
      tags: ['account'],
      querystring: SellerQuery,
      body: Body({ email: Str(254), state: Opt(100) }),
      response: answers(PasswordResetRequestAnswer),
    },
  }),
  passwordResetValidate: route({
    method: 'POST',
    url: '/password_reset/validate',
    schema: {
      summary: 'Whether a reset token is live, and the e-mail of its account',
      tags: ['account'],
      querystring: SellerQuery,
      body: Body({ token: Str(100) }),
      response: answers(ResetIdentityAnswer),
    },
  }),
  passwordReset: route({
    method: 'POST',
    url: '/password_reset/reset',
    schema: {
      summary: "Sets a new password with a live reset token (once) and ends the user's sessions",
      tags: ['account'],
      querystring: SellerQuery,
      body: Body({ token: Str(100), password: Password(true), password_confirm: Password() }),
      response: answers(ResetIdentityAnswer),
    },
  }),
  resend: route({
    method: 'POST',
    url: '/ticket_order/resend',
    schema: {
      summary: 'Mails the orders of an address again, to that address only (404 when it has none)',
      tags: ['account'],
      querystring: SellerQuery,
      body: Body({ email: Str(254), memberships_only: Type.Optional(Type.Boolean()) }),
      response: answers(ResendAnswer),
    },
  }),
  myUser: route({
    method: 'GET',
    url: '/my/user',
    schema: {
      summary: 'The logged-in user and its identity (with `_embed=identity.meta`, its meta)',
      tags: ['account'],
      querystring: MyQuery,
      response: answers(UserAnswer),
    },
  }),
  patchMyUser: route({
    method: 'PATCH',
    url: '/my/user/:id',
    schema: {
      summary: "Changes the logged-in user's profile fields (not the e-mail); `id` is the user's or its identity's",
      tags: ['account'],
      params: IdParams,
      querystring: MyQuery,
      body: ProfileBody,
      response: answers(UserAnswer),
    },
  }),
  putMyUser: route({
    method: 'PUT',
    url: '/my/user',
    schema: {
      summary: "The logged-in user's details, and an e-mail or a first password for an account without one",
      tags: ['account'],
      querystring: MyQuery,
      body: ProfileBody,
      response: answers(UserAnswer),
    },
  }),
  myOrders: route({
    method: 'GET',
    url: '/my/ticket_order',
    schema: {
      summary: "The logged-in user's orders, newest first, with tickets and catalogue rows as `_embed` asks",
      tags: ['account'],
      querystring: myQuery({ 'id._in': Type.Optional(Type.String({ maxLength: 3700, pattern: `^(${UUID})(,(${UUID}))*$` })) }),
      response: answers(MyOrdersAnswer),
    },
  }),
  mySessions: route({
    method: 'GET',
    url: '/my/order_session',
    schema: {
      summary: 'Sessions the logged-in user holds tickets for in the given states (default booked, redeemed), soonest first',
      tags: ['account'],
      querystring: myQuery({
        'ticket.state._in': Type.Optional(Type.String({ maxLength: 100, pattern: `^${TicketStates}(,${TicketStates})*$` })),
        'start_datetime._gte': Type.Optional(Type.String({ format: 'date-time' })),
        id: Type.Optional(Uuid),
      }),
      response: answers(MySessionsAnswer),
    },
  }),
  myMemberships: route({
    method: 'GET',
    url: '/my/membership',
    schema: {
      summary: "The logged-in user's memberships, newest term first; roles, programs, orders, tickets as `_embed` asks",
      tags: ['account'],
      querystring: MyQuery,
      response: answers(MyMembershipsAnswer),
    },
  }),
  myResend: route({
    method: 'POST',
    url: '/my/ticket_order/resend',
    schema: {
      summary: "Mails the logged-in user's orders again (only memberships when asked); 404 when there are none",
      tags: ['account'],
      querystring: MyQuery,
      body: Body({ memberships_only: Type.Optional(Type.Boolean()) }),
      response: answers(ResendAnswer),
    },
  }),
};

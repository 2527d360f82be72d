import type { UserAnswer, MyMembershipsAnswer, MyOrdersAnswer, MySessionsAnswer } from '../../contract/account';
import type { CartAnswer, OrderAnswer } from '../../contract/cart';
import type { CalendarAnswer, ConfigAnswer, EventsAnswer, SessionsAnswer, TicketGroupAnswer } from '../../contract/catalogue';
import type { ErrorBody } from '../../contract/errors';
import type { MembershipRulesAnswer } from '../../contract/membership';
import type { SavedPaymentMethodsAnswer } from '../../contract/saved-payment';
import type { SelfEditAnswer } from '../../contract/self-edit';

/** The instant the demo seller's answers were recorded at (scripts/story-fixtures.ts); the stories' clock. */
export const STORY_NOW = '2026-05-04T13:00:00.000Z';

/** The API's answers over the demo seller, as scripts/story-fixtures.ts recorded them (the contract's wire types). */
export interface RecordedAnswers {
  /** GET config */
  config: ConfigAnswer;
  /** GET events/available (the public listing) */
  events: EventsAnswer;
  /** GET events/{admission} with everything the reservation flow embeds */
  admission: EventsAnswer;
  /** GET events/{admission}/calendar?_format=extended */
  calendar: CalendarAnswer;
  /** GET events/{admission}/sessions on the first available day */
  sessions: SessionsAnswer;
  /** GET events/{admission}/sessions/{the first that has not started} */
  session: SessionsAnswer;
  /** GET cart/{id}: two admission tickets on that session */
  cart: CartAnswer;
  /** GET my/user: the demo member */
  user: UserAnswer;
  /** GET my/membership: the demo member's membership */
  memberships: MyMembershipsAnswer;
  /** GET config?key._in=payments: the card gateway's settings */
  payments: ConfigAnswer;
  /** GET ticket_group/{checkout_donation_tg_id}?_embed=ticket_type: the checkout's donation offer */
  donation: TicketGroupAnswer;
  /** GET events/{membership_event_id} with the reservation flow's embeds: the buy-membership form's event */
  membershipEvent: EventsAnswer;
  /** GET membership_rules with the levels, programs and types */
  membershipRules: MembershipRulesAnswer;
  /** POST cart/{cart}/guest_checkout with the test gateway's declined card: the 402 refusal */
  declined: ErrorBody;
  /** GET ticket_order/{id}: the order the guest's cart became (with its tickets, types, groups, events, venue) */
  order: OrderAnswer;
  /** GET ticket_order/{that order}/self_edit: the manage screen's read */
  selfEdit: SelfEditAnswer;
  /** GET cart/{id}: a cart of the logged-in member (one admission ticket) */
  memberCart: CartAnswer;
  /** GET my/identity/saved_payment_method: the card the member kept at an earlier purchase */
  savedCards: SavedPaymentMethodsAnswer;
  /** GET my/ticket_order: the member's orders */
  myOrders: MyOrdersAnswer;
  /** GET my/order_session from STORY_NOW: the member's upcoming visits */
  mySessions: MySessionsAnswer;
  /** GET my/membership with the account area's embeds */
  accountMemberships: MyMembershipsAnswer;
  /** GET ticket_order/{the member's earlier order} */
  memberOrder: OrderAnswer;
  /** The images the stories draw, as data: addresses by their path under the API: image/{id} of every image of the
   *  seller, ticket_order/{id}/qrcode of both orders, membership/{id}/qrcode of the member's */
  media: Record<string, string>;
}

import recorded from '../fixtures/demo-answers.json';
import type { ConfigAnswer } from '../../contract/catalogue';
import type { StorefrontConfig } from '../../contract/storefront';
import type { RecordedAnswers } from './recorded';
import { ok, refusal, type Replies, type Reply } from './story-api';

/** The demo seller's answers (scripts/story-fixtures.ts recorded them from the API). */
export const DEMO = recorded as unknown as RecordedAnswers;

export const admissionEvent = DEMO.admission.event_template._data[0];
export const ADMISSION_ID = admissionEvent.id;
export const CART_ID = DEMO.cart.cart._data[0].id;
/** The logged-in member's own cart (one admission ticket). */
export const MEMBER_CART_ID = DEMO.memberCart.cart._data[0].id;
/** The order the guest's cart became (the confirmation's, the manage screen's). */
export const ORDER_ID = DEMO.order.ticket_order._data[0].id;
/** The member's upcoming visit (the account's visit page). */
export const VISIT_ID = DEMO.mySessions.order_session._data[0]?.id ?? '';
/** The member's earlier order (the account's order page). */
export const MEMBER_ORDER_ID = DEMO.memberOrder.ticket_order._data[0].id;
export const demoSession = DEMO.session.event_session._data[0];

/** A state a screen's data can be in: its recorded answer, none yet, an empty one, or a server failure. */
export type DataState = 'ready' | 'loading' | 'empty' | 'error';

export interface DemoScenario {
  /** The events listing (GET events/available). */
  events?: DataState;
  /** The admission event's detail and its reservation reads. */
  detail?: DataState;
  /** Every session and day of the admission event sold out. */
  soldOut?: boolean;
  /** The demo member is logged in (GET my/user answers; else it is a 401, nobody is). */
  member?: boolean;
  /** The shopper's stored cart: two admission tickets (true), or the logged-in member's own cart of one ('member'). */
  cart?: boolean | 'member';
  /** Seller config over the demo seller's (membership presell, a layout, ...), as GET config would answer it. */
  storefront?: Partial<StorefrontConfig>;
}

/** GET config with `storefront` over the recorded storefront config. */
function configWith(storefront: Partial<StorefrontConfig> | undefined): ConfigAnswer {
  if (!storefront) return DEMO.config;
  const rows = DEMO.config.config._data.map((row) =>
    row.key === 'storefront' ? { ...row, value: { ...(row.value as StorefrontConfig), ...storefront } } : row,
  );
  return { ...DEMO.config, config: { ...DEMO.config.config, _data: rows } };
}

const empty = <T extends { _data: unknown[]; _count: number }>(table: T): T => ({ ...table, _data: [], _count: 0 });

/** A day or session of the recording, sold out. */
const soldOutSessions = () => ({
  ...DEMO.sessions,
  event_session: {
    ...DEMO.sessions.event_session,
    _data: DEMO.sessions.event_session._data.map((s) => ({ ...s, sold_out: true, availableCapacity: 0, used_capacity: s.capacity })),
  },
});
const soldOutCalendar = () => ({
  calendar: {
    ...DEMO.calendar.calendar,
    _data: DEMO.calendar.calendar._data.map((d) => (d.status === 'available' ? { ...d, status: 'sold_out' as const } : d)),
  },
});

function stateReply(state: DataState, ready: unknown, emptied: unknown): Reply {
  if (state === 'loading') return 'pending';
  if (state === 'error') return refusal(500, 'internal_error');
  return ok(state === 'empty' ? emptied : ready);
}

/** The API's answers for a story: the demo seller's recording, narrowed to the state the story shows. */
export function demoReplies(scenario: DemoScenario = {}): Replies {
  const { events = 'ready', detail = 'ready', soldOut = false, member = false, cart = false, storefront } = scenario;
  const eventPath = `events/${ADMISSION_ID}`;
  const storefrontConfig = configWith(storefront);
  const needsMember = refusal(401, 'not_authenticated');
  const accountEmbed = (params: Record<string, unknown>) => String(params._embed ?? '').includes('identity_link');
  const replies: Replies = {
    // GET config is asked for the storefront's keys at boot and for the card gateway's settings at the checkout.
    'GET config': ({ params }) => ok(params['key._in'] === 'payments' ? DEMO.payments : storefrontConfig),
    'GET events/available': stateReply(events, DEMO.events, { ...DEMO.events, event_template: empty(DEMO.events.event_template) }),
    [`GET ${eventPath}`]: detail === 'empty' ? refusal(404, 'not_found') : stateReply(detail, DEMO.admission, DEMO.admission),
    [`GET ${eventPath}/calendar`]: stateReply(detail, soldOut ? soldOutCalendar() : DEMO.calendar, {
      calendar: empty(DEMO.calendar.calendar),
    }),
    [`GET ${eventPath}/sessions`]: stateReply(detail, soldOut ? soldOutSessions() : DEMO.sessions, {
      ...DEMO.sessions,
      event_session: empty(DEMO.sessions.event_session),
    }),
    [`GET ${eventPath}/sessions/${demoSession.id}`]: ok(DEMO.session),
    'GET my/user': member ? ok(DEMO.user) : needsMember,
    // The session reads the membership for its benefits; the account area with its tickets and orders.
    'GET my/membership': ({ params }) => (member ? ok(accountEmbed(params) ? DEMO.accountMemberships : DEMO.memberships) : needsMember),
    'GET my/identity/saved_payment_method': member ? ok(DEMO.savedCards) : needsMember,
    'GET my/ticket_order': member ? ok(DEMO.myOrders) : needsMember,
    'GET my/order_session': member ? ok(DEMO.mySessions) : needsMember,
    // The checkout's donation offer, the membership event's form and the levels' rules.
    [`GET ticket_group/${DEMO.donation.ticket_group._data[0].id}`]: ok(DEMO.donation),
    [`GET events/${DEMO.membershipEvent.event_template._data[0].id}`]: ok(DEMO.membershipEvent),
    'GET membership_rules': ok(DEMO.membershipRules),
    // The guest's order, readable by the browser that bought it (the confirmation, the manage link).
    [`GET ticket_order/${ORDER_ID}`]: ok(DEMO.order),
    [`GET ticket_order/${ORDER_ID}/self_edit`]: ok(DEMO.selfEdit),
  };
  if (member) replies[`GET ticket_order/${MEMBER_ORDER_ID}`] = ok(DEMO.memberOrder);
  if (cart === 'member') replies[`GET cart/${MEMBER_CART_ID}`] = ok(DEMO.memberCart);
  else if (cart) replies[`GET cart/${CART_ID}`] = ok(DEMO.cart);
  return replies;
}

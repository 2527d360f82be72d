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
  /** The shopper's stored cart holds two admission tickets. */
  cart?: boolean;
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
  const replies: Replies = {
    'GET config': ok(configWith(storefront)),
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
    'GET my/user': member ? ok(DEMO.user) : refusal(401, 'not_authenticated'),
    'GET my/membership': member ? ok(DEMO.memberships) : refusal(401, 'not_authenticated'),
  };
  if (cart) replies[`GET cart/${CART_ID}`] = ok(DEMO.cart);
  return replies;
}

import type { UserAnswer, MyMembershipsAnswer } from '../../contract/account';
import type { CartAnswer } from '../../contract/cart';
import type { CalendarAnswer, ConfigAnswer, EventsAnswer, SessionsAnswer } from '../../contract/catalogue';

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
}

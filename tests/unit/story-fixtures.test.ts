import { describe, expect, it } from 'vitest';
import { Errors } from 'typebox/value';
import type { TSchema } from 'typebox';
import recorded from '../../src/stories/fixtures/demo-answers.json';
import type { RecordedAnswers } from '../../src/stories/harness/recorded';
import { MyMembershipsAnswer, MyOrdersAnswer, MySessionsAnswer, UserAnswer } from '../../src/contract/account';
import { CartAnswer, OrderAnswer } from '../../src/contract/cart';
import { CalendarAnswer, ConfigAnswer, EventsAnswer, SessionsAnswer, TicketGroupAnswer } from '../../src/contract/catalogue';
import { ErrorBody } from '../../src/contract/errors';
import { MembershipRulesAnswer } from '../../src/contract/membership';
import { SavedPaymentMethodsAnswer } from '../../src/contract/saved-payment';
import { SelfEditAnswer } from '../../src/contract/self-edit';
import { StorefrontConfig } from '../../src/contract/storefront';

/** Each recorded answer (scripts/story-fixtures.ts) and the contract schema of the route that answered it. */
const SCHEMAS: Record<Exclude<keyof RecordedAnswers, 'media'>, TSchema> = {
  config: ConfigAnswer,
  events: EventsAnswer,
  admission: EventsAnswer,
  calendar: CalendarAnswer,
  sessions: SessionsAnswer,
  session: SessionsAnswer,
  cart: CartAnswer,
  user: UserAnswer,
  memberships: MyMembershipsAnswer,
  memberOrder: OrderAnswer,
  payments: ConfigAnswer,
  donation: TicketGroupAnswer,
  membershipEvent: EventsAnswer,
  membershipRules: MembershipRulesAnswer,
  declined: ErrorBody,
  order: OrderAnswer,
  selfEdit: SelfEditAnswer,
  memberCart: CartAnswer,
  savedCards: SavedPaymentMethodsAnswer,
  myOrders: MyOrdersAnswer,
  mySessions: MySessionsAnswer,
  accountMemberships: MyMembershipsAnswer,
};

/** The stories feed the stores with this recording: it must still be what the API answers (re-run
 *  `npm run stories:fixtures` when the contract changes and this fails). */
describe('the stories recording is the wire as the contract has it', () => {
  const answers = recorded as unknown as Record<string, unknown>;
  it('holds every answer the stories use and nothing else', () => {
    expect(Object.keys(answers).sort()).toEqual([...Object.keys(SCHEMAS), 'media'].sort());
  });
  it('every image the recording names, as the media route answered it', () => {
    const { media, config, events } = recorded as unknown as RecordedAnswers;
    const storefront = config.config._data.find((row) => row.key === 'storefront')?.value as StorefrontConfig;
    const named = [
      storefront.web?.logo,
      ...events.event_template._data.flatMap((e) => [e.meta?.image_profile, e.meta?.image_cover]),
    ].filter((id): id is string => typeof id === 'string');
    expect(named.length).toBeGreaterThan(2);
    for (const id of named) expect(media[`image/${id}`], id).toMatch(/^data:image\/[a-z+]+;base64,/);
  });
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(name, () => {
      expect([...Errors(schema, answers[name])].map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
    });
  }
  it("the seller's storefront config", () => {
    const storefront = (recorded as unknown as RecordedAnswers).config.config._data.find((row) => row.key === 'storefront')?.value;
    expect([...Errors(StorefrontConfig, storefront)]).toEqual([]);
  });
});

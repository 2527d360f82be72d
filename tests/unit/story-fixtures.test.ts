import { describe, expect, it } from 'vitest';
import { Errors } from 'typebox/value';
import type { TSchema } from 'typebox';
import recorded from '../../src/stories/fixtures/demo-answers.json';
import type { RecordedAnswers } from '../../src/stories/harness/recorded';
import { MyMembershipsAnswer, UserAnswer } from '../../src/contract/account';
import { CartAnswer } from '../../src/contract/cart';
import { CalendarAnswer, ConfigAnswer, EventsAnswer, SessionsAnswer } from '../../src/contract/catalogue';
import { StorefrontConfig } from '../../src/contract/storefront';

/** Each recorded answer (scripts/story-fixtures.ts) and the contract schema of the route that answered it. */
const SCHEMAS: Record<keyof RecordedAnswers, TSchema> = {
  config: ConfigAnswer,
  events: EventsAnswer,
  admission: EventsAnswer,
  calendar: CalendarAnswer,
  sessions: SessionsAnswer,
  session: SessionsAnswer,
  cart: CartAnswer,
  user: UserAnswer,
  memberships: MyMembershipsAnswer,
};

/** The stories feed the stores with this recording: it must still be what the API answers (re-run
 *  `npm run stories:fixtures` when the contract changes and this fails). */
describe('the stories recording is the wire as the contract has it', () => {
  const answers = recorded as unknown as Record<string, unknown>;
  it('holds every answer the stories use and nothing else', () => {
    expect(Object.keys(answers).sort()).toEqual(Object.keys(SCHEMAS).sort());
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

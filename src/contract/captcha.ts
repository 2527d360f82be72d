import type { Static } from 'typebox';
import { answers, route } from './answers';
import { JsonObject, Literals, Row, SellerQuery } from './primitives';
import { Table } from './tables';

/**
 * The guest checkout's captcha (issue 14; spec section 2). When the seller's config names a `captcha_provider`, a
 * shopper who is not logged in sends `captcha: { provider, token }` with each checkout call (cart.ts CheckoutBody);
 * the server refuses a missing token (captcha_required), a forged or expired one (captcha_invalid) and one already used
 * (captcha_reused). ALTCHA, the built-in provider, is solved in the browser from a challenge the server signs.
 */
export const CaptchaProviderId = Literals('altcha');

export const CaptchaChallengeRow = Row({
  provider: CaptchaProviderId,
  /** The provider's challenge as its widget takes it (ALTCHA: `{ parameters, signature }`), valid for 10 minutes. */
  challenge: JsonObject,
});
export type CaptchaChallengeRow = Static<typeof CaptchaChallengeRow>;

export const CaptchaChallengeAnswer = Row({ captcha_challenge: Table(CaptchaChallengeRow) });
export type CaptchaChallengeAnswer = Static<typeof CaptchaChallengeAnswer>;

export const captchaRoutes = {
  challenge: route({
    method: 'GET',
    url: '/captcha/challenge',
    schema: {
      summary: "A new challenge of the seller's captcha (one per checkout call); 404 when the seller asks for none",
      tags: ['cart'],
      querystring: SellerQuery,
      response: answers(CaptchaChallengeAnswer),
    },
  }),
};

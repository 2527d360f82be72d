import type { ApiClient } from './http';
import type { CaptchaChallengeAnswer } from '../contract/captcha';

/** GET captcha/challenge (issue 14): a new challenge of the seller's captcha, solved in the browser for one checkout call. */
export async function getCaptchaChallenge(client: ApiClient): Promise<Record<string, unknown>> {
  const { data } = await client.get<CaptchaChallengeAnswer>('captcha/challenge');
  const row = data.captcha_challenge?._data?.[0];
  if (!row) throw new Error('GET captcha/challenge answered without a challenge');
  return row.challenge;
}

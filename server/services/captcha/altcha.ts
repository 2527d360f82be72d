import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaCheck, CaptchaContext, CaptchaProvider } from './types';

/**
 * ALTCHA (self-hosted proof of work; no third party, works offline): the server signs a challenge with ALTCHA_HMAC_KEY,
 * the browser's `altcha` widget finds its counter in Web Workers and sends the payload as the checkout's captcha token,
 * and the server checks the signature, the solution, the expiry and that the challenge is this seller's. The work is
 * PBKDF2-SHA-256 (Web Crypto in the browser, no WebAssembly, so the page's CSP needs no 'wasm-unsafe-eval'), about
 * 2,500 derivations of 500 rounds on average: a second or two on a phone, a real cost to a bot paying with card after
 * card. Deterministic mode (a known counter, its key signed) makes the check one derivation.
 */
const ALGORITHM = 'PBKDF2/SHA-256';
const COST = 500;
const COUNTER_MIN = 1_000;
const COUNTER_MAX = 4_000;
/** How long a challenge may be solved and used: a shopper pays within it (the widget fetches one when paying). */
export const ALTCHA_TTL_MS = 10 * 60_000;

interface AltchaPayload {
  challenge?: Challenge | null;
  solution?: Solution | null;
}

function parse(token: string): AltchaPayload | null {
  try {
    const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as unknown;
    return payload && typeof payload === 'object' ? (payload as AltchaPayload) : null;
  } catch {
    return null;
  }
}

export function createAltchaProvider(hmacKey: string | undefined): CaptchaProvider {
  // The key signature (deterministic mode) gets a secret of its own, derived from the one the operator sets.
  const keySecret = hmacKey ? createHmac('sha256', hmacKey).update('altcha-key-signature').digest('hex') : undefined;
  return {
    id: 'altcha',
    available: () => Boolean(hmacKey),
    async challenge({ sellerId, now }: CaptchaContext) {
      if (!hmacKey) throw new Error('ALTCHA_HMAC_KEY is not set');
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost: COST,
        counter: randomInt(COUNTER_MIN, COUNTER_MAX),
        deriveKey,
        data: { seller: sellerId },
        expiresAt: new Date(now.getTime() + ALTCHA_TTL_MS),
        hmacSignatureSecret: hmacKey,
        hmacKeySignatureSecret: keySecret,
      });
      return challenge as unknown as Record<string, unknown>;
    },
    async verify(token: string, { sellerId, now }: CaptchaContext): Promise<CaptchaCheck> {
      if (!hmacKey) return { ok: false, reason: 'invalid' };
      const payload = parse(token);
      const challenge = payload?.challenge;
      if (!challenge?.parameters || !challenge.signature || !payload?.solution) return { ok: false, reason: 'invalid' };
      // Another seller's challenge (its id is signed into the parameters) buys nothing here.
      if (challenge.parameters.data?.seller !== sellerId) return { ok: false, reason: 'invalid' };
      const expiresAt = challenge.parameters.expiresAt;
      if (!expiresAt || expiresAt * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
      let result;
      try {
        result = await verifySolution({
          challenge,
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret: hmacKey,
          hmacKeySignatureSecret: keySecret,
        });
      } catch {
        return { ok: false, reason: 'invalid' };
      }
      if (result.expired) return { ok: false, reason: 'expired' };
      if (!result.verified) return { ok: false, reason: 'invalid' };
      return { ok: true, id: challenge.parameters.nonce, expiresAt: new Date(expiresAt * 1000) };
    },
  };
}

import type { Deps } from '../../deps';
import type { Seller } from '../../db/types';
import { DomainError, isUniqueViolation } from '../errors';
import { createAltchaProvider } from './altcha';
import type { CaptchaProvider } from './types';

export type { CaptchaProvider } from './types';

/** The providers this server has, by the seller config's `captcha_provider`; ALTCHA is built in. */
const providers = new WeakMap<Deps['config'], Map<string, CaptchaProvider>>();
function providersOf(config: Deps['config']): Map<string, CaptchaProvider> {
  let list = providers.get(config);
  if (!list) {
    list = new Map([['altcha', createAltchaProvider(config.altchaHmacKey)]]);
    providers.set(config, list);
  }
  return list;
}

/** The captcha the seller asks guests for (`captcha_provider` in its config), or null when it asks for none. */
export function sellerCaptcha(deps: Deps, seller: Pick<Seller, 'config'>): CaptchaProvider | null {
  const id = (seller.config as Record<string, unknown> | null)?.captcha_provider;
  if (typeof id !== 'string' || !id) return null;
  const provider = providersOf(deps.config).get(id);
  if (!provider || !provider.available()) {
    // Asked for, but this server cannot run it: guest checkouts stop rather than go unchecked.
    throw new DomainError('captcha_unavailable', 'The captcha cannot be checked on this server.', 'checkout', { provider: id });
  }
  return provider;
}

/** GET captcha/challenge: what the seller's captcha widget solves; 404 when the seller asks for no captcha. */
export async function captchaChallenge(deps: Deps, seller: Seller): Promise<{ provider: string; challenge: Record<string, unknown> }> {
  const provider = sellerCaptcha(deps, seller);
  if (!provider) throw new DomainError('not_found', 'This seller asks for no captcha.', 'captcha');
  return { provider: provider.id, challenge: await provider.challenge({ sellerId: seller.id, now: new Date() }) };
}

/**
 * A guest checkout's captcha (spec section 2): when the seller asks for one, a shopper who is not logged in sends a
 * token of its provider with every checkout call; a missing, forged, expired or already spent token is refused before
 * anything is claimed or charged. The token's solution is spent by one insert under the primary key captcha_use_pk (its id), so
 * checkouts sending the same token at once are one success and captcha_reused for the others. Logged-in users skip it.
 */
export async function checkCheckoutCaptcha(
  deps: Deps,
  seller: Seller,
  loggedIn: boolean,
  captcha: { provider?: string; token?: string } | undefined,
): Promise<void> {
  if (loggedIn) return;
  const provider = sellerCaptcha(deps, seller);
  if (!provider) return;
  if (!captcha?.token)
    throw new DomainError('captcha_required', 'Please confirm you are not a robot.', 'checkout', { provider: provider.id });
  if (captcha.provider && captcha.provider !== provider.id)
    throw new DomainError('captcha_invalid', 'The captcha is not valid.', 'checkout', { provider: provider.id, reason: 'invalid' });
  const check = await provider.verify(captcha.token, { sellerId: seller.id, now: new Date() });
  if (!check.ok)
    throw new DomainError('captcha_invalid', 'The captcha is not valid.', 'checkout', { provider: provider.id, reason: check.reason });
  try {
    await deps.db
      .insertInto('captcha_use')
      .values({ provider: provider.id, challenge_id: check.id, expires_at: check.expiresAt, used_at: deps.now() })
      .execute();
  } catch (err) {
    if (isUniqueViolation(err, 'captcha_use_pk'))
      throw new DomainError('captcha_reused', 'This captcha was used already.', 'checkout', { provider: provider.id });
    throw err;
  }
}

/** Forgets spent solutions whose challenges have expired (a later use is refused as expired anyway). */
export async function purgeCaptchaUses(deps: Deps): Promise<number> {
  const gone = await deps.db.deleteFrom('captcha_use').where('expires_at', '<', new Date()).executeTakeFirst();
  return Number(gone.numDeletedRows ?? 0);
}

import type { Deps } from '../../deps';
import { DomainError } from '../errors';

/** Fixed-window limits (hits per window) for the requests an attacker would repeat. */
export const LIMITS = {
  login_ip: { max: 30, windowSeconds: 900 },
  /** wrong guesses at one account from one address (the right one gives its try back) */
  login_account_ip: { max: 5, windowSeconds: 900 },
  /** wrong guesses at one account from anywhere: slow, so one attacker cannot lock its owner out (OWASP ASVS 6.3) */
  login_account: { max: 100, windowSeconds: 3600 },
  otp_request_ip: { max: 10, windowSeconds: 900 },
  otp_request_email: { max: 5, windowSeconds: 900 },
  otp_verify_ip: { max: 30, windowSeconds: 900 },
  reset_request_ip: { max: 10, windowSeconds: 900 },
  reset_request_email: { max: 5, windowSeconds: 900 },
  resend_ip: { max: 10, windowSeconds: 900 },
  resend_email: { max: 5, windowSeconds: 900 },
  /** guest purchaser identities (POST user) one address may create */
  guest_identity_ip: { max: 100, windowSeconds: 900 },
  /** gift code look-ups and redemptions from one address (10-digit codes must not be guessable by trying) */
  gift_code_ip: { max: 30, windowSeconds: 900 },
  /** wrong promo codes tried from one address (apply_code, GET code/{code}); a code that works gives its try back */
  promo_code_ip: { max: 60, windowSeconds: 900 },
  /** wrong gift card numbers tried from one address (GET ledger/giftcard/{number}); a card that exists gives its try back */
  gift_card_ip: { max: 30, windowSeconds: 900 },
  /** address lookups (find and retrieve) from one address: each one is a paid call to the provider */
  address_lookup_ip: { max: 120, windowSeconds: 900 },
  /** single sign-on logins one address may start (each keeps a row until it comes back or expires) */
  sso_start_ip: { max: 30, windowSeconds: 900 },
  /** carts one address may start; the seller's cart.limits.new_carts_per_address overrides the count */
  cart_create_ip: { max: 300, windowSeconds: 3600 },
} as const;
export type LimitName = keyof typeof LIMITS;

export const rateLimited = (retryAfter: number) =>
  new DomainError('rate_limited', 'Too many attempts. Please wait a few minutes and try again.', undefined, { retry_after: retryAfter });

/**
 * Counts one hit and refuses it past the limit. One statement per hit: the insert takes the window's
 * first hit, the conditional update counts the others only while under the limit, so concurrent hits
 * can never push the count beyond `max` and no read-then-write race exists.
 */
export async function hit(deps: Deps, name: LimitName, subject: string, max?: number): Promise<void> {
  if (!(await tryHit(deps, name, subject, max))) {
    const { windowSeconds } = LIMITS[name];
    const nowMs = deps.now().getTime();
    const end = Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000 + windowSeconds * 1000;
    throw rateLimited(Math.max(1, Math.ceil((end - nowMs) / 1000)));
  }
}

/** Gives back a hit of the current window (a try that turned out right does not count against its owner). */
export async function refund(deps: Deps, name: LimitName, subject: string): Promise<void> {
  const windowMs = LIMITS[name].windowSeconds * 1000;
  const windowStart = new Date(Math.floor(deps.now().getTime() / windowMs) * windowMs);
  await deps.db
    .updateTable('rate_limit')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', `${name}:${subject}`)
    .where('window_start', '=', windowStart)
    .where('count', '>', 0)
    .execute();
}

/** Like hit() but answers false instead of throwing (for mails sent on the side). `max` overrides the limit's count. */
export async function tryHit(deps: Deps, name: LimitName, subject: string, maxHits?: number): Promise<boolean> {
  const { windowSeconds } = LIMITS[name];
  const max = maxHits ?? LIMITS[name].max;
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(deps.now().getTime() / windowMs) * windowMs);
  const row = await deps.db
    .insertInto('rate_limit')
    .values({ key: `${name}:${subject}`, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['key', 'window_start'])
        .doUpdateSet((eb) => ({ count: eb('rate_limit.count', '+', 1) }))
        .where('rate_limit.count', '<', max),
    )
    .returning('count')
    .executeTakeFirst();
  return !!row;
}

/** Old windows are worthless; the cleanup job removes them. */
export async function purgeRateLimits(deps: Deps): Promise<number> {
  const longest = Math.max(...Object.values(LIMITS).map((l) => l.windowSeconds));
  const r = await deps.db
    .deleteFrom('rate_limit')
    .where('window_start', '<', new Date(deps.now().getTime() - longest * 2000))
    .executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}

/**
 * A captcha provider (issue 14; spec section 2: a captcha for shoppers who are not logged in, when the seller asks for
 * one). Providers live in their own files and import this interface, never the index that lists them.
 */
export interface CaptchaContext {
  sellerId: string;
  /** Real time: a challenge's life is a security timer, not the venue's business clock (TEST_NOW may pin that one). */
  now: Date;
}

export type CaptchaCheck =
  /** `id` names the solution once: it is spent by recording it (captcha_use), so it pays for one checkout only */
  { ok: true; id: string; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' };

export interface CaptchaProvider {
  id: string;
  /** Whether this server can run it (its secret is set); a seller asking for it here cannot take guest checkouts. */
  available(): boolean;
  /** What the browser needs to produce a token (ALTCHA: a signed proof-of-work challenge). */
  challenge(ctx: CaptchaContext): Promise<Record<string, unknown>>;
  /** Checks a token the browser sent; never throws for a bad token. */
  verify(token: string, ctx: CaptchaContext): Promise<CaptchaCheck>;
}

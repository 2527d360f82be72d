import type { CaptchaToken } from '../../stores/CheckoutStore';

/** What the checkout asks of its captcha widget (AltchaWidget.tsx, a lazy chunk): a token for one checkout call. */
export interface CaptchaHandle {
  /** null when the shopper closed it or it expired (the checkout stops silently); throws when it could not be solved. */
  solve(): Promise<CaptchaToken | null>;
}

/** The captcha providers the storefront draws; the seller config's `captcha_provider` names one. */
export const CAPTCHA_PROVIDERS = ['altcha'] as const;
export type CaptchaProviderId = (typeof CAPTCHA_PROVIDERS)[number];

/** The seller's captcha for a shopper, or null: none asked for, an unknown provider, or a logged-in shopper (spec section 2). */
export function captchaFor(providerSetting: unknown, loggedIn: boolean): CaptchaProviderId | null {
  if (loggedIn) return null;
  return CAPTCHA_PROVIDERS.find((p) => p === providerSetting) ?? null;
}

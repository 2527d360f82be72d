/**
 * The message of a promo code refusal (spec section 8): the per-code string table for the codes the spec shows, else
 * 'Sorry. Please try again later.'. Values are i18n keys with `{{code}}` for the code the shopper typed.
 */
export const PROMO_MESSAGES: Readonly<Record<string, string>> = {
  code_exhausted: 'promo.errors.exhausted',
  code_not_found: 'promo.errors.notFound',
  no_code_benefit: 'promo.errors.noBenefit',
  duplicate_code: 'promo.errors.duplicate',
  validation_failed: 'promo.errors.validation',
  additional_info_validation_failed: 'promo.errors.additionalInfo',
  invalid_citypass: 'promo.errors.invalid',
  citypass_failure: 'promo.errors.invalid',
};

/** Spec section 8's promo codes: shown to the shopper; any other refusal is the shop's problem, not the code's. */
export const isPromoRefusal = (code: string) => code in PROMO_MESSAGES;

export function promoMessageKey(errorCode: string): string {
  return PROMO_MESSAGES[errorCode] ?? 'promo.errors.unknown';
}

import type { FeatureFlags, StorefrontConfig } from '../contract/storefront';

/** Spec section 9: default polling 1000 ms. */
export const DEFAULT_FLAGS_POLL_MS = 1000;
/** Never faster than this, whatever the config says: every open page asks the server once per interval. */
export const MIN_FLAGS_POLL_MS = 250;

/**
 * The seller's feature flags with every flag decided (schemas/seller-config.schema.json `flags`): a flag wins where it
 * is set; unset, the older setting of the same capability decides, so configs written before the flags keep their
 * behaviour. GET config serves them so (server/services/config.ts), and the storefront reads `flags` only.
 */
export function resolvedFlags(
  config: StorefrontConfig,
): Required<Pick<FeatureFlags, 'promo_field' | 'upsells' | 'extend_timer' | 'membership_presell'>> {
  const flags = config.flags;
  return {
    promo_field: flags?.promo_field ?? config.web?.show_promo_codes_on_checkout === true,
    upsells: flags?.upsells ?? config.upsells?.enabled !== false,
    extend_timer: flags?.extend_timer ?? config.web?.extend_timer === true,
    membership_presell: flags?.membership_presell ?? config.membership_presell === true,
  };
}

export function flagsPollMs(config: Pick<StorefrontConfig, 'flags_poll_ms'>): number {
  const ms = config.flags_poll_ms;
  return typeof ms === 'number' && Number.isFinite(ms) ? Math.max(MIN_FLAGS_POLL_MS, ms) : DEFAULT_FLAGS_POLL_MS;
}

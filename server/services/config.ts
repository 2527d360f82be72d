import type { Seller } from '../db/types';
import { table } from '../../src/contract/tables';
import type { ConfigAnswer } from '../../src/contract/catalogue';

import { CONFIG_KEYS } from '../../src/contract/first-reads';
import { resolvedFlags } from '../../src/domain/flags';
import { addressLookupOn } from '../../src/domain/address';

type ConfigKey = (typeof CONFIG_KEYS)[number] | 'payments';

/** The `payments` entry (issue 14): the seller's card gateway and, for Stripe, the publishable key the browser needs. */
export interface PaymentsConfig {
  gateway: 'test' | 'stripe';
  publishable_key?: string;
}

/**
 * GET config: the seller row and its runtime config entries (storefront config, string overrides, content blocks, and
 * `payments`, which the first page does not ask for: only the checkout needs it).
 */
export function getConfig(
  seller: Seller,
  filter: { keys?: string[]; resourceIds?: string[] },
  payments: PaymentsConfig = { gateway: 'test' },
  server: { addressLookup: boolean } = { addressLookup: false },
): ConfigAnswer {
  const config = seller.config ?? {};
  const values: Record<ConfigKey, unknown> = {
    // Every flag decided (a set flag, else its older setting): the storefront reads `flags` and nothing else for them.
    // The address lookup also needs the server's provider (issue 22): the storefront learns only yes or no.
    storefront: {
      ...config,
      flags: { ...config.flags, ...resolvedFlags(config), address_lookup: addressLookupOn(config, server.addressLookup) },
    },
    strings: seller.strings ?? {},
    content_blocks: seller.content_blocks ?? [],
    payments,
  };
  const wanted = [...CONFIG_KEYS, 'payments' as const].filter((k) => !filter.keys || filter.keys.includes(k));
  const forSeller = !filter.resourceIds || filter.resourceIds.some((id) => id.toLowerCase() === seller.id);
  return {
    seller: table([
      {
        id: seller.id,
        slug: seller.slug,
        name: seller.name,
        currency: seller.currency,
        timezone: seller.timezone,
        locale: typeof seller.config?.locale === 'string' ? seller.config.locale : 'en-US',
      },
    ]),
    config: table(forSeller ? wanted.map((key) => ({ resource_id: seller.id, key, value: values[key] })) : []),
  };
}

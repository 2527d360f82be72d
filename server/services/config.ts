import type { Seller } from '../db/types';
import { tables, type Tables } from '../../src/contract/tables';

export const CONFIG_KEYS = ['storefront', 'strings', 'content_blocks'] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

/** GET config: the seller row and its runtime config entries (storefront config, string overrides, content blocks). */
export function getConfig(seller: Seller, filter: { keys?: string[]; resourceIds?: string[] }): Tables {
  const values: Record<ConfigKey, unknown> = {
    storefront: seller.config ?? {},
    strings: seller.strings ?? {},
    content_blocks: seller.content_blocks ?? [],
  };
  const wanted = CONFIG_KEYS.filter((k) => !filter.keys || filter.keys.includes(k));
  const forSeller = !filter.resourceIds || filter.resourceIds.some((id) => id.toLowerCase() === seller.id);
  return tables({
    seller: [{
      id: seller.id, slug: seller.slug, name: seller.name, currency: seller.currency, timezone: seller.timezone,
      locale: typeof seller.config?.locale === 'string' ? seller.config.locale : 'en-US',
    }],
    config: forSeller ? wanted.map((key) => ({ resource_id: seller.id, key, value: values[key] })) : [],
  });
}

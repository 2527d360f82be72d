import { makeAutoObservable } from 'mobx';
import type { SellerConfig } from '../api/config';
import type { DeploymentConfig, MetadataFilterDef, SellerRow, StorefrontConfig } from '../api/types';
import type { ContentBlockDef } from '../domain/content-blocks';
import type { ScreenLayoutConfig } from '../domain/layout';
import type { FilterOptions } from '../domain/event-filters';
import { readableTextColor, normalizeHexColor } from '../domain/colors';
import type { FeatureFlags } from '../contract/storefront';

export const DEFAULT_PRIMARY_COLOR = '#222222';

/** The seller and its runtime config as loaded at boot; only the feature flags change during a visit (the poller in
 *  src/app/flags-poller.ts replaces them). */
export class ConfigStore {
  readonly deployment: DeploymentConfig;
  readonly seller: SellerRow;
  readonly storefront: StorefrontConfig;
  readonly strings: Record<string, string>;
  readonly contentBlocks: ContentBlockDef[];
  /** The slug the visit's path starts with, or null for the default seller without a prefix. */
  readonly sellerPrefix: string | null;
  /** The seller's feature flags as the server decided them (src/domain/flags.ts); the poller replaces them. */
  flags: FeatureFlags;

  constructor(deployment: DeploymentConfig, config: SellerConfig, sellerPrefix: string | null) {
    this.deployment = deployment;
    this.seller = config.seller;
    this.storefront = config.storefront;
    this.strings = config.strings;
    this.contentBlocks = config.contentBlocks;
    this.sellerPrefix = sellerPrefix;
    this.flags = config.storefront.flags ?? {};
    // Apart from the flags, the config never changes after boot: its fields are plain references, not deep observable copies.
    makeAutoObservable(this, {}, { autoBind: true, deep: false });
  }

  /** A poll's changed flags (the poller compares): a flag switched on or off shows on open pages at once. */
  setFlags(flags: FeatureFlags) {
    this.flags = flags;
  }

  get timezone(): string {
    return this.seller.timezone;
  }

  get primaryColor(): string {
    return normalizeHexColor(this.storefront.web?.primary_color) ?? DEFAULT_PRIMARY_COLOR;
  }

  get primaryTextColor(): string {
    return readableTextColor(this.primaryColor);
  }

  get logoImageId(): string | null {
    return this.storefront.web?.logo ?? null;
  }

  get showVenueName(): boolean {
    return this.storefront.web?.show_venue_name ?? true;
  }

  get categoryFilters(): string[] {
    return this.storefront.web?.event_filters?.categories ?? [];
  }

  get metadataFilters(): MetadataFilterDef[] {
    return this.storefront.web?.event_filters?.metadata ?? [];
  }

  get filterOptions(): FilterOptions {
    return { categories: this.categoryFilters, metadataKeys: this.metadataFilters.map((m) => m.key) };
  }

  get layout(): Record<string, ScreenLayoutConfig> | undefined {
    return this.storefront.layout;
  }
}

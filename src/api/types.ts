/** Wire shapes of the API contract (common brief / DESIGN.md section 3). */
import type { ContentBlockDef } from '../domain/content-blocks';

export interface Table<T> { _data: T[]; _count: number }

/** /storefront-config.json, served beside index.html. */
export interface DeploymentConfig {
  apiBaseUrl: string;
  cachedApiBaseUrl: string;
  defaultSeller: string;
}

export interface SellerRow {
  id: string;
  slug: string;
  name: string;
  currency: string;
  timezone: string;
  locale: string;
}

export interface MetadataFilterDef { key: string; label: string; options?: string[] }

/** seller-config.schema.json as served by GET config (keys replaced by ids). Only what the storefront reads
 *  so far is typed; the rest passes through. */
export interface StorefrontConfig {
  admission_event_id?: string | null;
  membership_event_id?: string | null;
  membership_presell?: boolean;
  home?: { enabled?: boolean; target?: string; options_order?: string[] };
  redirect?: { require_seller_prefix?: boolean; target?: string };
  web?: {
    show_venue_name?: boolean;
    primary_color?: string;
    logo?: string | null;
    event_filters?: { categories?: string[]; metadata?: MetadataFilterDef[] };
    [key: string]: unknown;
  };
  upsells?: { enabled?: boolean; skip?: boolean };
  external_urls?: { logo?: string | null };
  layout?: Record<string, string[]>;
  [key: string]: unknown;
}

export interface ConfigRow<V = unknown> { resource_id: string; key: string; value: V }

export interface ConfigResponse {
  seller: Table<SellerRow>;
  config: Table<ConfigRow>;
}

export interface VenueRow { id: string; name: string; timezone: string }

export interface EventMeta {
  image_profile?: string | null;
  image_cover?: string | null;
  image_profile_alt?: string | null;
  image_cover_alt?: string | null;
  reserve_flow?: 'date_first' | 'quantity_first';
  [key: string]: unknown;
}

export interface EventTemplateRow {
  id: string;
  seller_id: string;
  name: string;
  category: string;
  subtitle: string | null;
  summary: string | null;
  description: string | null;
  event_type: 'single' | 'repeating' | 'other';
  hidden_type: string;
  venue_id: string | null;
  _rank: number;
  meta?: EventMeta;
  next_session_start?: string | null;
}

export interface EventsResponse {
  event_template: Table<EventTemplateRow>;
  venue?: Table<VenueRow>;
}

export type { ContentBlockDef };

/** Wire types of the API the storefront reads, all `Static<>` of the contract's schemas (src/contract). */
import type { ContentBlockDef } from '../domain/content-blocks';

export type { TableOf as Table } from '../contract/tables';
export type {
  ConfigAnswer as ConfigResponse,
  ConfigRow,
  EventTemplateRow,
  EventsAnswer as EventsResponse,
  SellerRow,
  VenueRow,
} from '../contract/catalogue';
export type { DeploymentConfig, MetadataFilterDef, StorefrontConfig } from '../contract/storefront';
export type { ContentBlockDef };

import type { ApiClient } from './http';
import type { ConfigResponse, ContentBlockDef, DeploymentConfig, SellerRow, StorefrontConfig } from './types';
import { ApiError, toApiError } from './errors';
import { configRead } from '../contract/first-reads';

/** GET /storefront-config.json: where the API is and which seller to show by default. */
export async function fetchDeploymentConfig(fetchImpl: typeof fetch = fetch): Promise<DeploymentConfig> {
  let response: Response;
  try {
    response = await fetchImpl('/storefront-config.json', { headers: { Accept: 'application/json' } });
  } catch (error) {
    throw toApiError(error);
  }
  if (!response.ok) throw new ApiError(response.status, 'deployment_config_unavailable', `storefront-config.json: HTTP ${response.status}`);
  const body = (await response.json()) as Partial<DeploymentConfig>;
  return {
    apiBaseUrl: body.apiBaseUrl ?? '/api',
    cachedApiBaseUrl: body.cachedApiBaseUrl ?? body.apiBaseUrl ?? '/cached_api',
    defaultSeller: body.defaultSeller ?? 'demo',
  };
}

export interface SellerConfig {
  seller: SellerRow;
  storefront: StorefrontConfig;
  strings: Record<string, string>;
  contentBlocks: ContentBlockDef[];
}

/** GET config for the client's seller: the seller row and its storefront, strings and content_blocks. */
export async function getSellerConfig(client: ApiClient): Promise<SellerConfig> {
  const read = configRead();
  const { data } = await client.get<ConfigResponse>(read.path, { params: read.params });
  const seller = data.seller?._data?.[0];
  if (!seller) throw new ApiError(404, 'seller_not_found', 'GET config returned no seller');
  const value = <T>(key: string, fallback: T): T =>
    (data.config?._data?.find((row) => row.key === key)?.value as T | undefined) ?? fallback;
  return {
    seller,
    storefront: value<StorefrontConfig>('storefront', {}),
    strings: value<Record<string, string>>('strings', {}),
    contentBlocks: value<ContentBlockDef[]>('content_blocks', []),
  };
}

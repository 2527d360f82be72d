import type { ApiClient } from './api/http';
import { createApiClient } from './api/client';
import { fetchDeploymentConfig, getSellerConfig, type SellerConfig } from './api/config';
import { ApiError } from './api/errors';
import type { DeploymentConfig } from './api/types';
import { candidateSellerSlug } from './domain/paths';

export interface BootResult {
  deployment: DeploymentConfig;
  api: ApiClient;
  sellerConfig: SellerConfig;
  /** The slug the path starts with, or null when the visit is for the default seller without a prefix. */
  sellerPrefix: string | null;
}

export interface BootDeps {
  fetchDeployment?: () => Promise<DeploymentConfig>;
  loadSellerConfig?: (api: ApiClient) => Promise<SellerConfig>;
  /** The API client for a seller (the server's renderer answers from the page's reads alone). */
  createApi?: typeof createApiClient;
}

const isSellerNotFound = (error: unknown) => error instanceof ApiError && (error.status === 404 || error._code === 'seller_not_found');

/** Deployment config -> which seller (a first path segment names one if GET config knows it; otherwise the
 *  default seller and the segment is an ordinary path) -> that seller's config. */
export async function bootstrap(pathname: string, deps: BootDeps = {}): Promise<BootResult> {
  const deployment = await (deps.fetchDeployment ?? fetchDeploymentConfig)();
  const loadConfig = deps.loadSellerConfig ?? getSellerConfig;
  const clientFor = (seller: string) => (deps.createApi ?? createApiClient)({ baseURL: deployment.apiBaseUrl, seller });

  const candidate = candidateSellerSlug(pathname);
  if (candidate) {
    const api = clientFor(candidate);
    try {
      return { deployment, api, sellerConfig: await loadConfig(api), sellerPrefix: candidate };
    } catch (error) {
      if (!isSellerNotFound(error)) throw error;
    }
  }
  const api = clientFor(deployment.defaultSeller);
  return { deployment, api, sellerConfig: await loadConfig(api), sellerPrefix: null };
}

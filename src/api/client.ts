import type { AxiosInstance, AxiosResponse } from 'axios';
import type { ApiClient } from './http';
import type { ApiClientOptions } from './axios-client';
import { takePrimedRead } from './primed-reads';

export type { ApiClient } from './http';
export type { ApiClientOptions } from './axios-client';

type Params = Record<string, unknown>;

/** The address a GET of `url` with `params` names, as the page's first reads are keyed (contract/first-reads.ts), or
 *  null when a parameter is not a plain value (the page carries no such read). */
function readAddress(baseURL: string, seller: string, url: string, params: Params | undefined): string | null {
  const query: Record<string, string> = { _seller: seller };
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return null;
    query[key] = String(value);
  }
  const base = baseURL.endsWith('/') ? baseURL : `${baseURL}/`;
  return `${base}${url}?${new URLSearchParams(query)}`;
}

/**
 * The storefront's API client (issue 19: a lighter first page). A read the server already answered in the page
 * (api/primed-reads.ts) is answered here; the first request that must go to the network downloads axios and the
 * client built on it (axios-client.ts: seller param, ecomm header, cookies, retries, typed errors), which every later
 * request uses. A first page whose reads all came with it loads no axios at all until something is sent.
 * `load` builds the real client (tests hand in one of their own); `take` gives a read's answer that came with the page
 * (the server's renderer, src/entry-server.tsx, hands in the reads of the page it draws).
 */
export function createApiClient(
  options: ApiClientOptions,
  load: () => Promise<AxiosInstance> = () => import('./axios-client').then((m) => m.createAxiosClient(options)),
  take: (address: string) => unknown = takePrimedRead,
): ApiClient {
  let real: Promise<AxiosInstance> | undefined;
  const client = () =>
    (real ??= load().catch((error: unknown) => {
      // A failed download is tried again by the next request (the chunk-load retry has done its part).
      real = undefined;
      throw error;
    }));
  const api = {
    get(url: string, config?: { params?: Params }) {
      const address = readAddress(options.baseURL, options.seller, url, config?.params);
      const body = address ? take(address) : undefined;
      if (body !== undefined)
        return Promise.resolve({ data: body, status: 200, statusText: 'OK', headers: {}, config: {} } as AxiosResponse);
      return client().then((c) => c.get(url, config));
    },
    post: (url: string, data?: unknown, config?: object) => client().then((c) => c.post(url, data, config)),
    put: (url: string, data?: unknown, config?: object) => client().then((c) => c.put(url, data, config)),
    patch: (url: string, data?: unknown, config?: object) => client().then((c) => c.patch(url, data, config)),
    delete: (url: string, config?: object) => client().then((c) => c.delete(url, config)),
  };
  // The verbs' generic signatures are axios' own: each call is handed to the instance unchanged.
  return api as unknown as ApiClient;
}

export { imageUrl } from '../contract/urls';

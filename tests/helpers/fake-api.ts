import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { createAxiosClient } from '../../src/api/axios-client';

export type Reply = { status: number; data: unknown };
export type Handler = (config: InternalAxiosRequestConfig) => Reply;
export interface SeenRequest {
  method: string;
  url: string;
  params: Record<string, unknown>;
  body: unknown;
}

/**
 * Store unit tests replace only axios' adapter: the real client (seller param, ecomm header, error
 * conversion to ApiError) runs, the handler answers by method and path, and every request is recorded.
 * Never used by browser tests, which talk to the real server.
 */
export function fakeServer(handler: Handler) {
  const seen: SeenRequest[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push({
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      params: config.params ?? {},
      body: config.data ? JSON.parse(config.data) : undefined,
    });
    const reply = handler(config);
    const response = { status: reply.status, data: reply.data, statusText: '', headers: {}, config };
    // Like axios' own adapters: a request's validateStatus decides which statuses fail (default: 4xx and 5xx).
    const ok = config.validateStatus ? config.validateStatus(reply.status) : reply.status < 400;
    if (!ok) throw new AxiosError(`HTTP ${reply.status}`, 'ERR_BAD_RESPONSE', config, {}, response);
    return response;
  };
  const api = createAxiosClient({ baseURL: '/api', seller: 'demo' });
  api.defaults.adapter = adapter;
  return { api, seen };
}

/** "GET cart/123" for a request: handlers switch on it. */
export const route = (config: InternalAxiosRequestConfig) => `${(config.method ?? 'get').toUpperCase()} ${config.url}`;

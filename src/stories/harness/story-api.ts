import type { AxiosAdapter, AxiosInstance, InternalAxiosRequestConfig } from 'axios';
import { AxiosError } from 'axios';
import { createAxiosClient } from '../../api/axios-client';
import type { ErrorBody, ErrorCode } from '../../contract/errors';

/**
 * What the API answers one call with in a story: a wire answer with its status, or 'pending' (an answer that never
 * comes: the loading states).
 */
export type Reply = { status: number; body: unknown } | 'pending';

/** The request a reply may depend on: its query parameters and body (one path read with different queries). */
export interface StoryRequest {
  params: Record<string, unknown>;
  data: unknown;
}

/** Replies by 'METHOD path', the path relative to the API base without its query ('GET events/available'); a
 *  function answers by the request's query or body. */
export type Replies = Record<string, Reply | ((request: StoryRequest) => Reply)>;

export const ok = (body: unknown): Reply => ({ status: 200, body });

/** A refusal as the server sends it (src/contract/errors.ts): the storefront reads its `_code`. */
export function refusal(status: number, code: ErrorCode, extra?: Record<string, unknown>): Reply {
  const body: ErrorBody = { _data: [{ _code: code, ...(extra ? { _extra: extra } : {}) }] };
  return { status, body };
}

function keyOf(config: InternalAxiosRequestConfig): string {
  const url = (config.url ?? '').split('?')[0].replace(/^\/+/, '');
  return `${(config.method ?? 'get').toUpperCase()} ${url}`;
}

/**
 * The storefront's own API client (src/api/client.ts: the seller param, error conversion and retries) whose transport
 * answers from `replies` instead of the network: the stores under it run as in the app, on the API's wire answers.
 * A call the story has no reply for is a 404 `not_found`, as the API answers an unknown resource.
 */
export function storyApi(replies: Replies): AxiosInstance {
  const api = createAxiosClient({ baseURL: '/api', seller: 'demo' });
  const adapter: AxiosAdapter = (config) => {
    const answer = replies[keyOf(config)] ?? refusal(404, 'not_found');
    const body = typeof config.data === 'string' && config.data ? (JSON.parse(config.data) as unknown) : config.data;
    const reply = typeof answer === 'function' ? answer({ params: (config.params ?? {}) as Record<string, unknown>, data: body }) : answer;
    if (reply === 'pending') return new Promise(() => {});
    const response = { data: reply.body, status: reply.status, statusText: String(reply.status), headers: {}, config, request: null };
    if (reply.status < 400) return Promise.resolve(response);
    return Promise.reject(new AxiosError(`HTTP ${reply.status}`, AxiosError.ERR_BAD_RESPONSE, config, null, response));
  };
  api.defaults.adapter = adapter;
  return api;
}

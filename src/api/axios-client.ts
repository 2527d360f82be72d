import axios, { type AxiosError, type AxiosInstance } from 'axios';
import axiosRetry, { isNetworkError } from 'axios-retry';
import { toApiError } from './errors';

/** Spec section 9: read retries 3, 250 ms doubling. */
export const READ_RETRIES = 3;
export const FIRST_RETRY_DELAY_MS = 250;
export const REQUEST_TIMEOUT_MS = 20_000;

export interface ApiClientOptions {
  baseURL: string;
  /** seller id or slug, sent as `_seller` on every call */
  seller: string;
}

/** Spec section 7: reads retry on timeout, network error or 502; writes never retry (they are not idempotent). */
export function shouldRetryRead(error: AxiosError): boolean {
  const method = (error.config?.method ?? 'get').toLowerCase();
  if (method !== 'get' && method !== 'head') return false;
  const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
  return timedOut || isNetworkError(error) || error.response?.status === 502;
}

export function retryDelayMs(retryCount: number): number {
  return FIRST_RETRY_DELAY_MS * 2 ** (retryCount - 1);
}

/** The one axios instance per API base: seller param, ecomm header, cookies, retries, typed errors. */
export function createAxiosClient({ baseURL, seller }: ApiClientOptions): AxiosInstance {
  const client = axios.create({
    baseURL: baseURL.endsWith('/') ? baseURL : `${baseURL}/`,
    withCredentials: true,
    timeout: REQUEST_TIMEOUT_MS,
    headers: { 'X-Ticketing-App': 'ecomm' },
  });
  client.interceptors.request.use((config) => {
    config.params = { _seller: seller, ...(config.params ?? {}) };
    return config;
  });
  axiosRetry(client, {
    retries: READ_RETRIES,
    retryDelay: retryDelayMs,
    retryCondition: shouldRetryRead,
    shouldResetTimeout: true,
  });
  // Registered after axios-retry so retries happen first and only the final failure is converted.
  client.interceptors.response.use(undefined, (error: unknown) => Promise.reject(toApiError(error)));
  return client;
}

import type { AxiosInstance } from 'axios';

/**
 * What the storefront asks of its HTTP client: the five verbs of axios' instance. The app's client (client.ts) answers
 * the page's first reads itself and downloads axios for the first request it must send; tests and stories hand in a
 * whole axios instance.
 */
export type ApiClient = Pick<AxiosInstance, 'get' | 'post' | 'put' | 'patch' | 'delete'>;

/** A failed request as axios reports it (its errors carry `isAxiosError: true`), told apart without importing axios,
 *  which would put the whole library in the first page's bundle. */
export interface HttpClientError {
  isAxiosError: true;
  message: string;
  response?: { status: number; data?: unknown };
}

export function isHttpClientError(error: unknown): error is HttpClientError {
  return typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true;
}

import { isHttpClientError } from './http';

/** Every failed API call becomes one of these: the first `_data` item of the error body (spec section 8: its `_code`,
 *  `_context` and `_extra`; the API sends no English, so every message comes from the locale files). */
export class ApiError extends Error {
  readonly status: number;
  readonly _code: string;
  readonly _context?: string;
  readonly _extra?: Record<string, unknown>;

  /** `detail` is for logs and developers only (a network failure's reason), never shown to a shopper. */
  constructor(status: number, code: string, detail: string, context?: string, extra?: Record<string, unknown>) {
    super(`${code}: ${detail}`);
    this.name = 'ApiError';
    this.status = status;
    this._code = code;
    this._context = context;
    this._extra = extra;
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

/** Status 0 means no HTTP answer (offline, DNS, CORS, timeout). */
export const NETWORK_ERROR = 'network_error';
export const UNKNOWN_ERROR = 'unknown_error';

export interface ErrorItem {
  _code?: unknown;
  _context?: unknown;
  _extra?: unknown;
}

/** The ApiError of one `_data` item of an error body. */
export function errorOfItem(status: number, item: ErrorItem & { _code: string }): ApiError {
  return new ApiError(
    status,
    item._code,
    '',
    typeof item._context === 'string' ? item._context : undefined,
    item._extra && typeof item._extra === 'object' ? (item._extra as Record<string, unknown>) : undefined,
  );
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isHttpClientError(error)) {
    const status = error.response?.status ?? 0;
    const item = firstErrorItem(error.response?.data);
    if (item && typeof item._code === 'string') return errorOfItem(status, item as ErrorItem & { _code: string });
    if (!error.response) return new ApiError(0, NETWORK_ERROR, error.message);
    return new ApiError(status, UNKNOWN_ERROR, error.message);
  }
  return new ApiError(0, UNKNOWN_ERROR, error instanceof Error ? error.message : String(error));
}

function firstErrorItem(data: unknown): ErrorItem | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const list = (data as { _data?: unknown })._data;
  return Array.isArray(list) && list[0] && typeof list[0] === 'object' ? (list[0] as ErrorItem) : undefined;
}

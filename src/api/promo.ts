import type { ApiClient } from './http';
import type { CartResponse } from './cart';
import { ApiError, UNKNOWN_ERROR, errorOfItem, type ErrorItem } from './errors';

export interface ApplyCodeRequest {
  codes: string[];
  remove_codes?: string[];
  require_benefit?: boolean;
  ignore_errors?: boolean;
}

/**
 * POST cart/{id}/apply_code (guest) or my/cart/{id}/apply_code (logged in), answering the cart (issue 13's wire).
 * The refusal is read here rather than by the client's interceptor, because spec section 8 wants the second error of
 * a duplicate_code answer when there is one.
 */
export async function applyCodes(client: ApiClient, cartId: string, body: ApplyCodeRequest, loggedIn: boolean): Promise<CartResponse> {
  const url = `${loggedIn ? 'my/' : ''}cart/${encodeURIComponent(cartId)}/apply_code`;
  const res = await client.post<CartResponse | { _data?: ErrorItem[] }>(
    url,
    { require_benefit: true, ...body },
    { validateStatus: (s) => s < 500 },
  );
  if (res.status < 400) return res.data as CartResponse;
  throw promoRefusal(res.status, (res.data as { _data?: ErrorItem[] })?._data ?? []);
}

/** The refusal to show: the first item, or for duplicate_code the second when there is one. */
export function promoRefusal(status: number, items: ErrorItem[]): ApiError {
  const first = items[0];
  const chosen = first?._code === 'duplicate_code' && typeof items[1]?._code === 'string' ? items[1] : first;
  if (!chosen || typeof chosen._code !== 'string') return new ApiError(status, UNKNOWN_ERROR, '');
  return errorOfItem(status, chosen as ErrorItem & { _code: string });
}

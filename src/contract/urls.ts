/** Addresses the storefront puts in the page for the browser to fetch itself (images), built one way. */

/** The address of a stored image (spec section 7: sizex, sizey, shrinkonly hints). */
export function imageUrl(baseURL: string, imageId: string, size?: { width: number; height?: number }): string {
  const base = baseURL.endsWith('/') ? baseURL.slice(0, -1) : baseURL;
  const query = new URLSearchParams();
  if (size) {
    query.set('sizex', String(size.width));
    if (size.height) query.set('sizey', String(size.height));
    query.set('shrinkonly', 'true');
  }
  const qs = query.toString();
  return `${base}/image/${encodeURIComponent(imageId)}${qs ? `?${qs}` : ''}`;
}

/** The per-order access token travels in this header, never in an address (addresses land in logs and history). */
export const ORDER_TOKEN_HEADER = 'x-order-access-token';

/** The order's QR image under the cached API, for the browser that owns the order (its cookie travels with the img
 *  request); a browser holding only the order's access token fetches it with the token's header instead. */
export function orderQrUrl(cachedApiBaseUrl: string, orderId: string, seller: string): string {
  const base = cachedApiBaseUrl.endsWith('/') ? cachedApiBaseUrl.slice(0, -1) : cachedApiBaseUrl;
  return `${base}/ticket_order/${encodeURIComponent(orderId)}/qrcode?${new URLSearchParams({ _seller: seller })}`;
}

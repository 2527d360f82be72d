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

/** The order's QR image under the cached API (the owner cookie travels with the img request; the token is a
 *  fallback for a browser that lost its cookie). */
export function orderQrUrl(cachedApiBaseUrl: string, orderId: string, seller: string, accessToken?: string | null): string {
  const base = cachedApiBaseUrl.endsWith('/') ? cachedApiBaseUrl.slice(0, -1) : cachedApiBaseUrl;
  const query = new URLSearchParams({ _seller: seller });
  if (accessToken) query.set('access_token', accessToken);
  return `${base}/ticket_order/${encodeURIComponent(orderId)}/qrcode?${query.toString()}`;
}

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

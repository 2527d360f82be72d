/** /checkout/complete?orderIds=a,b (spec section 2). */
export function completionPath(orderIds: string[]): string {
  return `/checkout/complete?${new URLSearchParams({ orderIds: orderIds.join(',') }).toString()}`;
}

/** The order ids of a completion URL's query; empty when missing or blank. */
export function orderIdsOf(search: URLSearchParams): string[] {
  return (search.get('orderIds') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** /checkout/pending/{cartId}: a payment the provider is still clearing (spec section 2). */
export function pendingPath(cartId: string): string {
  return `/checkout/pending/${encodeURIComponent(cartId)}`;
}

import type { StorefrontConfig } from '../contract/storefront';

/** Spec section 2, completion: an external completed-order URL receives the order ids as `orderIds` (comma list). */
export function completedOrderRedirect(url: string, orderIds: string[]): string {
  const target = new URL(url);
  target.searchParams.set('orderIds', orderIds.join(','));
  return target.toString();
}

/** Spec section 9: the completion background switches from the phone image to the wide one at 26em. */
export const COMPLETION_IMAGE_MEDIA = '(min-width: 26em)';
export const COMPLETION_IMAGE = { mobile: 800, desktop: 1500 } as const;

/** The completion page's background images (ids), spec section 2: one for phones, one for 26em and wider; either
 *  stands in for the other. */
export function completionImage(storefront: StorefrontConfig): { mobile: string | null; desktop: string | null } {
  const img = storefront.web?.completion_image;
  return { mobile: img?.mobile ?? img?.desktop ?? null, desktop: img?.desktop ?? img?.mobile ?? null };
}

/** An external completed-order address (config external_urls.completed_order): the purchase ends there. */
export function completedOrderUrl(storefront: StorefrontConfig): string | null {
  const url = storefront.external_urls?.completed_order;
  return typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
}

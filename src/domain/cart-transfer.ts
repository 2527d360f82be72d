/** Cart transfer links (issue 17; spec section 2, /transfer-cart/{cartId}?next=...). */

const NEXT_MAX = 500;

/**
 * Where the transfer page goes once the cart is the visitor's: the link's `next` when it is a path of this storefront
 * ('/events/...'), else /checkout. Another site, a protocol-relative '//host' or a backslash trick is never followed.
 */
export function transferNextPath(next: string | null): string {
  if (!next || next.length > NEXT_MAX || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/checkout';
  // Control characters (a newline, a tab) are no part of a path a link should carry.
  return [...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) ? '/checkout' : next;
}

/** The link's path: the token goes in the fragment, so it never reaches a server's log or a Referer. */
export function transferLinkPath(cartId: string, token: string): string {
  return `/transfer-cart/${encodeURIComponent(cartId)}#${new URLSearchParams({ token })}`;
}

/** The token of a transfer link's fragment ('#token=...'), or null. */
export function transferTokenOf(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

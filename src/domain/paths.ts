/** Path rules of spec section 2: every path may sit under a seller slug, and a trailing slash is removed. */

/** First path segments that are routes of the storefront, so they can never be a seller slug. */
export const ROUTE_SEGMENTS: ReadonlySet<string> = new Set([
  'events',
  'checkout',
  'transfer-cart',
  'membership',
  'my',
  'user',
  'resend',
  'manage',
  'logout',
  'login',
  '_stories',
  'api',
  'cached_api',
  'assets',
]);

const SLUG = /^[a-z0-9][a-z0-9-]{0,40}$/;

/** '/events/' -> '/events'; '/' stays '/'; several trailing slashes go too. */
export function stripTrailingSlash(pathname: string): string {
  if (pathname.length <= 1) return pathname || '/';
  const stripped = pathname.replace(/\/+$/, '');
  return stripped === '' ? '/' : stripped;
}

/** The first segment of a path when it could name a seller (looks like a slug, is not a route), else null.
 *  Whether a seller by that slug exists is decided by asking the API (see boot). */
export function candidateSellerSlug(pathname: string): string | null {
  const first = pathname.split('/').filter(Boolean)[0];
  if (!first) return null;
  const segment = safeDecode(first).toLowerCase();
  if (ROUTE_SEGMENTS.has(segment) || !SLUG.test(segment)) return null;
  return segment;
}

/** '/demo/events' with slug 'demo' -> '/events'; a path outside the prefix is returned unchanged. */
export function stripSellerPrefix(pathname: string, slug: string | null): string {
  if (!slug) return pathname;
  const prefix = `/${slug}`;
  if (pathname === prefix) return '/';
  if (pathname.toLowerCase().startsWith(`${prefix}/`)) return pathname.slice(prefix.length);
  return pathname;
}

/** '/events' under slug 'demo' -> '/demo/events'; the root becomes '/demo'. */
export function withSellerPrefix(path: string, slug: string | null): string {
  if (!slug) return path;
  return path === '/' ? `/${slug}` : `/${slug}${path}`;
}

/** The router basename for a seller prefix ('/demo'), or undefined when the default seller has no prefix. */
export function basenameFor(slug: string | null): string | undefined {
  return slug ? `/${slug}` : undefined;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Spec section 2: without membership presell the home route goes to the admission event (or the listing when
 *  there is none); null when the home screen itself shows. The router follows it, and the server primes the
 *  target's reads in the page (server/http/index-html.ts). */
export function homeRedirectTarget(storefront: {
  membership_presell?: boolean;
  flags?: { membership_presell?: boolean };
  admission_event_id?: string | null;
}): string | null {
  // The feature flag wins where set (src/domain/flags.ts).
  if (storefront.flags?.membership_presell ?? storefront.membership_presell) return null;
  return storefront.admission_event_id ? `/events/${storefront.admission_event_id}` : '/events';
}

/** The screens people arrive at from outside (links, ads, e-mails), whose code the page fetches at once. */
export type LandingScreen = 'events' | 'event-detail' | 'checkout';

/**
 * The screen a path lands on (app/router.tsx: /events, /events/:eventId(/:action), /checkout/:cartId?). The first
 * segment may be a seller slug (decided later), so the path is tried with and without it. The storefront's boot and
 * the server's page (server/http/index-html.ts) both ask.
 */
export function landingScreenOf(pathname: string): LandingScreen | null {
  const segments = pathname.split('/').filter(Boolean);
  for (const [first, second] of [segments, segments.slice(1)]) {
    if (first === 'events') return second ? 'event-detail' : 'events';
    if (first === 'checkout' && second !== 'complete') return 'checkout';
  }
  return null;
}

/** A screen the server draws (drawnScreenOf). */
export type DrawnScreenKind = 'events' | 'event-detail' | 'checkout';

/**
 * The screen the server draws into the page at `pathname` (server rendering, issue 19: the first paint is the screen
 * rather than a loading status; src/entry-server.tsx), or null: the events listing, an event's page and a cart's
 * checkout (/checkout/{cartId}), without a query. The listing and the event are drawn as every visitor first sees
 * them (no cart, nobody logged in), so their pages stay ones the read cache may keep; the checkout is drawn from the
 * cart its page carries, read with the visitor's own cookies (only the cart's owner gets it drawn).
 */
export function drawnScreenOf(pathname: string, search: string, sellerPrefix: string | null): DrawnScreenKind | null {
  if (search && search !== '?') return null;
  const [root, first, id, ...rest] = stripSellerPrefix(pathname, sellerPrefix).split('/');
  if (root !== '' || rest.length) return null;
  // '/events/' is not: the client's trailing-slash rule sends it to '/events' before any screen draws.
  if (first === 'events') return id === undefined ? 'events' : id ? 'event-detail' : null;
  return first === 'checkout' && id && id !== 'complete' ? 'checkout' : null;
}

/** What a drawn screen's path names: an event page's event id (drawnScreenOf 'event-detail'), a checkout's cart id. */
export function drawnScreenId(pathname: string, sellerPrefix: string | null): string {
  return safeDecode(stripSellerPrefix(pathname, sellerPrefix).split('/')[2] ?? '');
}

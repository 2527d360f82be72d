import { runGuards, type GuardContext } from '../domain/guards';
import { stripTrailingSlash } from '../domain/paths';

/** Where a visit to an app path (seller prefix already removed) must go instead, or null to render it:
 *  first the trailing-slash rule, then guards 1-3. */
export function redirectFor(url: { pathname: string; search: string; hash: string }, ctx: GuardContext): string | null {
  const pathname = stripTrailingSlash(url.pathname);
  const guarded = runGuards({ pathname, search: url.search, hash: url.hash }, ctx);
  if (guarded) return guarded;
  if (pathname !== url.pathname) return `${pathname}${url.search}${url.hash}`;
  return null;
}

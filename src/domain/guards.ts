/** Route guards 1-3 of spec section 2, as pure functions: each returns where to go, or null to stay.
 *  Paths here are app paths, without the seller slug prefix. */

export interface RedirectRule {
  require_seller_prefix?: boolean;
  target?: string;
}
export interface HomeRule {
  enabled?: boolean;
  target?: string;
}

export interface GuardInput {
  pathname: string;
  search?: string;
  hash?: string;
}

const isRoot = (pathname: string) => pathname === '/' || pathname === '';

function sameTarget(target: string, input: GuardInput): boolean {
  return target === input.pathname || target === `${input.pathname}${input.search ?? ''}`;
}

/** Guard 1: when the seller's redirect rule requires a seller prefix and the visit has none, the root, any
 *  path containing /events and paths ending in /checkout go to the configured target. */
export function sellerPrefixGuard(input: GuardInput, rule: RedirectRule | undefined, hasSellerPrefix: boolean): string | null {
  if (!rule?.require_seller_prefix || !rule.target || hasSellerPrefix) return null;
  const { pathname } = input;
  const applies = isRoot(pathname) || pathname.includes('/events') || pathname.endsWith('/checkout');
  if (!applies || sameTarget(rule.target, input)) return null;
  return rule.target;
}

/** Guard 2: when the home route is disabled, the root and /events go to the target. */
export function homeDisabledGuard(input: GuardInput, home: HomeRule | undefined): string | null {
  if (!home || home.enabled !== false || !home.target) return null;
  const applies = isRoot(input.pathname) || input.pathname === '/events';
  if (!applies || sameTarget(home.target, input)) return null;
  return home.target;
}

/** Guard 3: /my goes to /my/membership for an active member, else /my/profile, keeping query and hash. */
export function myAccountGuard(input: GuardInput, isActiveMember: boolean): string | null {
  if (input.pathname !== '/my') return null;
  const child = isActiveMember ? '/my/membership' : '/my/profile';
  return `${child}${input.search ?? ''}${input.hash ?? ''}`;
}

export interface GuardContext {
  redirect?: RedirectRule;
  home?: HomeRule;
  hasSellerPrefix: boolean;
  isActiveMember: boolean;
}

/** The guards in the spec's order; the first that fires wins. */
export function runGuards(input: GuardInput, ctx: GuardContext): string | null {
  return (
    sellerPrefixGuard(input, ctx.redirect, ctx.hasSellerPrefix) ??
    homeDisabledGuard(input, ctx.home) ??
    myAccountGuard(input, ctx.isActiveMember)
  );
}

/** A target with a scheme (https://...) leaves the storefront. */
export function isExternalTarget(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
}

/** Seller content blocks (common contract): HTML shown on screens chosen by route name and role. */

/** The screens of the layout registry (src/domain/layout.ts), by route name: content blocks and layouts name these. */
export const ROUTE_NAMES = [
  'home',
  'events',
  'event-detail',
  'checkout',
  'pending',
  'completion',
  'membership',
  'account',
  'resend',
  'manage',
  'recovery',
  'not-found',
] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];

/** Who looks: a visitor, a logged-in user without a current membership, a current member. A member is logged in
 *  too: a block for 'logged_in' shows to members, a block for 'member' only to members. */
export const ROLES = ['anonymous', 'logged_in', 'member'] as const;
export type Role = (typeof ROLES)[number];
export type BlockSlot = 'top' | 'bottom';

export interface ContentBlockDef {
  name: string;
  slot: string;
  routes: string[];
  roles: string[];
  order?: number;
  html: string;
}

/** The roles a role also counts as, most specific first: a member is a logged-in user. */
export function roleChain(role: Role): Role[] {
  return role === 'member' ? ['member', 'logged_in'] : [role];
}

export function blockShowsFor(block: ContentBlockDef, role: Role): boolean {
  return roleChain(role).some((r) => block.roles.includes(r));
}

export function blockEnabledOn(block: ContentBlockDef, route: RouteName): boolean {
  return block.routes.includes('*') || block.routes.includes(route);
}

/** The blocks a screen shows for a role, in display order (order, then name for a stable tie-break). */
export function selectContentBlocks(blocks: readonly ContentBlockDef[], route: RouteName, role: Role): ContentBlockDef[] {
  return blocks
    .filter((b) => blockEnabledOn(b, route) && blockShowsFor(b, role))
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.name.localeCompare(b.name));
}

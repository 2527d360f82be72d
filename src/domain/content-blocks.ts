/** Seller content blocks (common contract): HTML shown on screens chosen by route name and role. */

export type RouteName = 'home' | 'events' | 'event-detail' | 'checkout' | 'completion' | 'account' | 'not-found';
export type Role = 'anonymous' | 'logged_in';
export type BlockSlot = 'top' | 'bottom';

export interface ContentBlockDef {
  name: string;
  slot: string;
  routes: string[];
  roles: string[];
  order?: number;
  html: string;
}

export function blockShowsFor(block: ContentBlockDef, role: Role): boolean {
  return block.roles.includes(role);
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

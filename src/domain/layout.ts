import { blockShowsFor, roleChain, selectContentBlocks, type ContentBlockDef, type Role, type RouteName } from './content-blocks';

/**
 * The layout registry (DESIGN.md section 7): every screen is an ordered list of named sections. A seller's config
 * `layout[routeName]` lists the sections to show, in order (a section left out is hidden), and may place a content
 * block with 'block:NAME'. The list may differ by role: `{ "anonymous": [...], "logged_in": [...], "member": [...],
 * "default": [...] }` (a member without its own list takes the logged-in one, then the default). Enabled blocks that the
 * config does not place go to their slot: 'top' before the sections, 'bottom' after them. The loader refuses unknown
 * screens, sections and blocks (server/catalog/check.ts); the storefront still ignores them, so an older config keeps
 * working when a section is renamed.
 */
export const SCREEN_SECTIONS = {
  home: ['heading', 'options', 'resend'],
  events: ['heading', 'upsell-heading', 'filters', 'results'],
  'event-detail': ['back-link', 'image', 'heading', 'description', 'reservation'],
  checkout: ['purchaser', 'payment', 'upsell', 'donation', 'terms', 'submit'],
  pending: ['content'],
  completion: ['image', 'heading', 'orders', 'account', 'continue'],
  membership: ['content'],
  account: ['page'],
  resend: ['content'],
  manage: ['content'],
  recovery: ['content'],
  'not-found': ['message'],
  // The date-first reservation flow inside event-detail's 'reservation' (spec section 2's order). Not a route: content
  // blocks show here only where its layout places them. The quantity-first flow keeps its own order (its steps).
  reservation: ['admission', 'dates', 'sessions', 'few-left', 'messages', 'quantities', 'survey', 'admit', 'citypass', 'seats', 'submit'],
} as const satisfies Record<RouteName | 'reservation', readonly string[]>;

export type ScreenWithLayout = keyof typeof SCREEN_SECTIONS;

/** Sections a screen cannot work without: a layout may move them but not hide them (a list that leaves one out
 *  is refused by the loader, and the storefront draws it after the listed ones). */
export const REQUIRED_SECTIONS: Partial<Record<ScreenWithLayout, readonly string[]>> = {
  checkout: ['purchaser', 'payment', 'terms', 'submit'],
  'event-detail': ['reservation'],
  // What a visitor needs to choose and reserve; the few-tickets warning and the message rules' texts may be hidden.
  reservation: ['admission', 'dates', 'sessions', 'quantities', 'survey', 'admit', 'citypass', 'seats', 'submit'],
};
export type SectionName<S extends ScreenWithLayout> = (typeof SCREEN_SECTIONS)[S][number];

export type LayoutItem<S extends ScreenWithLayout = ScreenWithLayout> =
  { kind: 'section'; name: SectionName<S> } | { kind: 'block'; block: ContentBlockDef };

export const BLOCK_PREFIX = 'block:';

/** One screen's entry in the config: one list for everybody, or lists by role. */
export type ScreenLayoutConfig = string[] | Partial<Record<Role | 'default', string[]>>;
export const LAYOUT_ROLE_KEYS = ['anonymous', 'logged_in', 'member', 'default'] as const;

export interface LayoutInput {
  configLayout?: Record<string, ScreenLayoutConfig | undefined> | null;
  blocks: readonly ContentBlockDef[];
  role: Role;
}

/** The configured order of a screen for a role, or undefined for the registry's own. */
export function configuredOrder(entry: ScreenLayoutConfig | undefined, role: Role): string[] | undefined {
  if (Array.isArray(entry)) return entry;
  if (!entry || typeof entry !== 'object') return undefined;
  for (const r of roleChain(role)) if (Array.isArray(entry[r])) return entry[r];
  return Array.isArray(entry.default) ? entry.default : undefined;
}

export function resolveLayout<S extends ScreenWithLayout>(screen: S, input: LayoutInput): LayoutItem<S>[] {
  const known: readonly string[] = SCREEN_SECTIONS[screen];
  const order = configuredOrder(input.configLayout?.[screen], input.role) ?? [...known];
  const byName = new Map(input.blocks.map((b) => [b.name, b]));

  const placed = new Set<string>();
  const middle: LayoutItem<S>[] = [];
  for (const entry of order) {
    if (typeof entry !== 'string') continue;
    if (entry.startsWith(BLOCK_PREFIX)) {
      const block = byName.get(entry.slice(BLOCK_PREFIX.length));
      // Placing a block on a screen enables it there; its roles still decide who sees it.
      if (block && !placed.has(entry) && blockShowsFor(block, input.role)) {
        middle.push({ kind: 'block', block });
      }
      placed.add(entry);
    } else if (known.includes(entry) && !placed.has(entry)) {
      middle.push({ kind: 'section', name: entry as SectionName<S> });
      placed.add(entry);
    }
  }

  for (const name of REQUIRED_SECTIONS[screen] ?? []) {
    if (!placed.has(name)) middle.push({ kind: 'section', name: name as SectionName<S> });
  }

  // A block the reservation flow places inside the event page is placed on the event page too (not also in a slot).
  if (screen === 'event-detail') {
    for (const entry of configuredOrder(input.configLayout?.reservation, input.role) ?? [])
      if (typeof entry === 'string') placed.add(entry);
  }
  const unplaced =
    screen === 'reservation'
      ? []
      : selectContentBlocks(input.blocks, screen as Exclude<S, 'reservation'>, input.role).filter(
          (b) => !placed.has(BLOCK_PREFIX + b.name),
        );
  const top = unplaced.filter((b) => b.slot !== 'bottom').map((block) => ({ kind: 'block', block }) as const);
  const bottom = unplaced.filter((b) => b.slot === 'bottom').map((block) => ({ kind: 'block', block }) as const);
  return [...top, ...middle, ...bottom];
}

/** What is wrong with a seller's `layout` (the loader's check): unknown screens, sections, roles and blocks. */
export function layoutIssues(layout: unknown, blockNames: ReadonlySet<string>): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (!layout || typeof layout !== 'object') return issues;
  const screens = Object.keys(SCREEN_SECTIONS);
  for (const [screen, entry] of Object.entries(layout as Record<string, unknown>)) {
    if (!screens.includes(screen)) {
      issues.push({ path: `/layout/${screen}`, message: `unknown screen '${screen}' (one of ${screens.join(', ')})` });
      continue;
    }
    const known: readonly string[] = SCREEN_SECTIONS[screen as ScreenWithLayout];
    const lists: [string, unknown][] = Array.isArray(entry)
      ? [[`/layout/${screen}`, entry]]
      : Object.entries((entry ?? {}) as Record<string, unknown>).map(([role, list]) => [`/layout/${screen}/${role}`, list]);
    if (!Array.isArray(entry)) {
      for (const role of Object.keys((entry ?? {}) as object)) {
        if (!(LAYOUT_ROLE_KEYS as readonly string[]).includes(role))
          issues.push({ path: `/layout/${screen}/${role}`, message: `unknown role '${role}' (one of ${LAYOUT_ROLE_KEYS.join(', ')})` });
      }
    }
    for (const [base, list] of lists) {
      if (!Array.isArray(list)) continue;
      for (const name of REQUIRED_SECTIONS[screen as ScreenWithLayout] ?? []) {
        if (!list.includes(name)) issues.push({ path: base, message: `must list '${name}': ${screen} cannot work without it` });
      }
      list.forEach((name, i) => {
        if (typeof name !== 'string') return;
        if (name.startsWith(BLOCK_PREFIX)) {
          if (!blockNames.has(name.slice(BLOCK_PREFIX.length)))
            issues.push({ path: `${base}/${i}`, message: `'${name}' names no content block (content-blocks/*.html)` });
        } else if (!known.includes(name)) {
          issues.push({
            path: `${base}/${i}`,
            message: `unknown section '${name}' of ${screen} (one of ${known.join(', ')}, or block:NAME)`,
          });
        }
      });
    }
  }
  return issues;
}

import { blockShowsFor, selectContentBlocks, type ContentBlockDef, type Role, type RouteName } from './content-blocks';

/** The layout registry (DESIGN.md section 7): each screen is an ordered list of named sections. A seller's
 *  config `layout[routeName]` lists the sections to show, in order (a section left out is hidden, an unknown
 *  name ignored) and may place a content block with 'block:NAME'. Enabled blocks that the config does not
 *  place go to their slot: 'top' before the sections, 'bottom' after them. */
export const SCREEN_SECTIONS = {
  home: ['heading', 'options', 'resend'],
  events: ['heading', 'upsell-heading', 'filters', 'results'],
  'event-detail': ['back-link', 'image', 'heading', 'description'],
  'not-found': ['message'],
} as const satisfies Partial<Record<RouteName, readonly string[]>>;

export type ScreenWithLayout = keyof typeof SCREEN_SECTIONS;
export type SectionName<S extends ScreenWithLayout> = (typeof SCREEN_SECTIONS)[S][number];

export type LayoutItem<S extends ScreenWithLayout = ScreenWithLayout> =
  { kind: 'section'; name: SectionName<S> } | { kind: 'block'; block: ContentBlockDef };

export const BLOCK_PREFIX = 'block:';

export interface LayoutInput {
  configLayout?: Record<string, string[] | undefined>;
  blocks: readonly ContentBlockDef[];
  role: Role;
}

export function resolveLayout<S extends ScreenWithLayout>(screen: S, input: LayoutInput): LayoutItem<S>[] {
  const known: readonly string[] = SCREEN_SECTIONS[screen];
  const configured = input.configLayout?.[screen];
  const order: string[] = Array.isArray(configured) ? configured : [...known];
  const byName = new Map(input.blocks.map((b) => [b.name, b]));

  const placed = new Set<string>();
  const middle: LayoutItem<S>[] = [];
  for (const entry of order) {
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

  const unplaced = selectContentBlocks(input.blocks, screen, input.role).filter((b) => !placed.has(BLOCK_PREFIX + b.name));
  const top = unplaced.filter((b) => b.slot !== 'bottom').map((block) => ({ kind: 'block', block }) as const);
  const bottom = unplaced.filter((b) => b.slot === 'bottom').map((block) => ({ kind: 'block', block }) as const);
  return [...top, ...middle, ...bottom];
}

import type { ContentBlockDef } from './content-blocks';

/** What a staff preview changes in the storefront itself (issue 18); the API answers the rest as for the visitor. */
export interface PreviewSettings {
  role: string;
  date?: string | null;
  blocks?: string[] | null;
}

const DAY = 86_400_000;

/** A clock moved by whole days to the preview's date (the time of day stays), or null for today. */
export function previewClock(date: string | null | undefined, realNow: () => number = Date.now): (() => Date) | null {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const today = Date.parse(`${new Date(realNow()).toISOString().slice(0, 10)}T00:00:00Z`);
  const shift = Math.round((Date.parse(`${date}T00:00:00Z`) - today) / DAY) * DAY;
  return () => new Date(realNow() + shift);
}

/** The content blocks a preview shows: the named set (in the seller's order), or the seller's own. */
export function previewBlocks(blocks: readonly ContentBlockDef[], names: string[] | null | undefined): ContentBlockDef[] {
  return names ? blocks.filter((b) => names.includes(b.name)) : [...blocks];
}

export function previewBoot(preview: PreviewSettings | null, blocks: readonly ContentBlockDef[]) {
  return { blocks: previewBlocks(blocks, preview?.blocks), now: previewClock(preview?.date) };
}

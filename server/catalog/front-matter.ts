import type { ContentBlockDef } from './types';
import { ROLES, ROUTE_NAMES } from '../../src/domain/content-blocks';

export { ROLES, ROUTE_NAMES };
const SLOTS = ['top', 'bottom'];

export interface FrontMatterIssue {
  path: string;
  message: string;
}

/**
 * Parses a content block file: a front matter block between '---' lines of `key: value` pairs
 * ('#' starts a comment; routes and roles are comma lists), then the HTML.
 */
export function parseContentBlock(text: string, fallbackName: string): { block?: ContentBlockDef; issues: FrontMatterIssue[] } {
  const issues: FrontMatterIssue[] = [];
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { issues: [{ path: '', message: "must start with a front matter block between '---' lines" }] };
  const fields: Record<string, string> = {};
  match[1].split(/\r?\n/).forEach((raw, i) => {
    const line = raw
      .replace(/\s+#.*$/, '')
      .replace(/^#.*$/, '')
      .trim();
    if (!line) return;
    const kv = /^([a-z_]+)\s*:\s*(.*)$/.exec(line);
    if (!kv) issues.push({ path: `/front-matter/line ${i + 1}`, message: `expected 'key: value', got '${line}'` });
    else if (!['name', 'slot', 'routes', 'roles', 'order'].includes(kv[1]))
      issues.push({ path: `/front-matter/${kv[1]}`, message: 'unknown front matter key (name, slot, routes, roles, order)' });
    else fields[kv[1]] = kv[2].trim();
  });
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  const name = fields.name || fallbackName;
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(name))
    issues.push({ path: '/front-matter/name', message: `'${name}' must be a key (a-z, 0-9, '-', '_')` });
  const slot = fields.slot || 'top';
  if (!SLOTS.includes(slot)) issues.push({ path: '/front-matter/slot', message: `must be one of ${SLOTS.join(', ')}` });
  const routes = list(fields.routes);
  if (routes.length === 0) issues.push({ path: '/front-matter/routes', message: "must list route names or '*'" });
  for (const r of routes) {
    if (r !== '*' && !(ROUTE_NAMES as readonly string[]).includes(r))
      issues.push({ path: '/front-matter/routes', message: `unknown route '${r}' (one of ${ROUTE_NAMES.join(', ')}, or *)` });
  }
  const roles = fields.roles ? list(fields.roles) : [...ROLES];
  for (const r of roles) {
    if (!(ROLES as readonly string[]).includes(r))
      issues.push({ path: '/front-matter/roles', message: `unknown role '${r}' (one of ${ROLES.join(', ')})` });
  }
  const order = fields.order === undefined ? 0 : Number(fields.order);
  if (!Number.isInteger(order)) issues.push({ path: '/front-matter/order', message: 'must be an integer' });
  const html = match[2].trim();
  if (!html) issues.push({ path: '', message: 'has no HTML after the front matter' });
  if (issues.length) return { issues };
  return { block: { name, slot: slot as 'top' | 'bottom', routes, roles, order, html }, issues };
}

/** Repo defaults overlaid by the seller's blocks: the seller wins by name. */
export function mergeContentBlocks(defaults: ContentBlockDef[], seller: ContentBlockDef[]): ContentBlockDef[] {
  const byName = new Map<string, ContentBlockDef>();
  for (const b of defaults) byName.set(b.name, b);
  for (const b of seller) byName.set(b.name, b);
  return [...byName.values()].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

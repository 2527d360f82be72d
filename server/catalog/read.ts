import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { PACKAGE_ROOT } from '../package-root';
import { IssueList } from './errors';
import { mergeContentBlocks, parseContentBlock } from './front-matter';
import { sanitizeSellerHtml, sanitizeSellerSvg } from './sanitize';
import type { CatalogFile, ContentBlockDef, ImageFile, SellerFolder, StaffDef } from './types';

const ROOT = PACKAGE_ROOT;
export const DEFAULT_CONTENT_BLOCKS_DIR = path.join(ROOT, 'content-blocks');
const MONEY_PATTERN = '^\\d{1,7}(\\.\\d{2})?$';
const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};
const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

interface Validators {
  config: ValidateFunction;
  catalog: ValidateFunction;
  strings: ValidateFunction;
  staff: ValidateFunction;
}
let validators: Validators | undefined;

/** Compiled once per process: schema compilation costs far more than validation. */
export function getValidators(): Validators {
  if (!validators) {
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const load = (name: string) => JSON.parse(readFileSync(path.join(ROOT, 'schemas', name), 'utf8'));
    validators = {
      config: ajv.compile(load('seller-config.schema.json')),
      catalog: ajv.compile(load('catalog.schema.json')),
      strings: ajv.compile({ type: 'object', additionalProperties: { type: 'string' }, propertyNames: { minLength: 1 } }),
      // Support staff: a hash of our password format (npm run staff:hash), never a password.
      staff: ajv.compile({
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['email', 'name', 'password_hash'],
          properties: {
            email: { type: 'string', format: 'email', maxLength: 254 },
            name: { type: 'string', minLength: 1, maxLength: 100 },
            password_hash: { type: 'string', pattern: '^scrypt\\$' },
          },
        },
      }),
    };
  }
  return validators;
}

/** Ajv errors as `path: message` issues, with the path pointing at the offending property where Ajv can say. */
function ajvIssues(file: string, errors: ErrorObject[], issues: IssueList) {
  const specific = errors.some((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
  const seen = new Set<string>();
  for (const e of errors) {
    if (specific && (e.keyword === 'anyOf' || e.keyword === 'oneOf')) continue;
    let p = e.instancePath;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'additionalProperties') {
      p += `/${(e.params as { additionalProperty: string }).additionalProperty}`;
      message = 'is not an allowed property here';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'pattern' && (e.params as { pattern: string }).pattern === MONEY_PATTERN) {
      message = 'must be a decimal amount like "24.00"';
    }
    const line = `${p}\u0000${message}`;
    if (!seen.has(line)) {
      seen.add(line);
      issues.add(file, p, message);
    }
  }
}

function readJson(dir: string, file: string, issues: IssueList, optional = false): unknown {
  const full = path.join(dir, file);
  if (!existsSync(full)) {
    if (!optional) issues.add(file, '', 'file not found');
    return undefined;
  }
  try {
    return JSON.parse(readFileSync(full, 'utf8'));
  } catch (err) {
    issues.add(file, '', `is not valid JSON: ${(err as Error).message}`);
    return undefined;
  }
}

function validate(file: string, value: unknown, fn: ValidateFunction, issues: IssueList): boolean {
  if (value === undefined) return false;
  if (fn(value)) return true;
  ajvIssues(file, fn.errors ?? [], issues);
  return false;
}

/** An SVG's intrinsic size from its width/height attributes or viewBox (best effort; null when unknown). */
function svgSize(text: string): { width: number | null; height: number | null } {
  const tag = /<svg\b[^>]*>/i.exec(text)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)(px)?"`).exec(tag)?.[1] ?? NaN);
  let width = attr('width');
  let height = attr('height');
  const box = /viewBox="[\d.-]+[ ,]+[\d.-]+[ ,]+([\d.]+)[ ,]+([\d.]+)"/.exec(tag);
  if (Number.isNaN(width) && box) width = Number(box[1]);
  if (Number.isNaN(height) && box) height = Number(box[2]);
  return { width: Number.isNaN(width) ? null : Math.round(width), height: Number.isNaN(height) ? null : Math.round(height) };
}

function readImages(dir: string, issues: IssueList): ImageFile[] {
  const folder = path.join(dir, 'images');
  if (!existsSync(folder)) return [];
  const out: ImageFile[] = [];
  for (const name of readdirSync(folder).sort()) {
    const file = `images/${name}`;
    const full = path.join(folder, name);
    if (name.startsWith('.') || !statSync(full).isFile()) continue;
    const ext = path.extname(name).toLowerCase();
    const contentType = IMAGE_TYPES[ext];
    const key = path.basename(name, path.extname(name));
    if (!contentType) {
      issues.add(file, '', `unsupported image type '${ext}' (${Object.keys(IMAGE_TYPES).join(', ')})`);
      continue;
    }
    if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(key)) {
      issues.add(file, '', `file name '${key}' must be a key (a-z, 0-9, '-', '_')`);
      continue;
    }
    const data = readFileSync(full);
    if (data.length > MAX_IMAGE_BYTES) {
      issues.add(file, '', `is ${data.length} bytes; the limit is ${MAX_IMAGE_BYTES}`);
      continue;
    }
    let size: { width: number | null; height: number | null } = { width: null, height: null };
    if (contentType === 'image/svg+xml') {
      const text = data.toString('utf8');
      // SVGs are served from our origin; script in one would run with the storefront's cookies.
      if (/<script\b|\son[a-z]+\s*=|javascript:|<foreignObject\b/i.test(text)) {
        issues.add(file, '', 'SVG must not contain scripts, event handlers or foreignObject');
        continue;
      }
      if (!/<svg\b/i.test(text)) {
        issues.add(file, '', 'is not an SVG document');
        continue;
      }
      size = svgSize(text);
    }
    if (out.some((i) => i.key === key)) {
      issues.add(file, '', `another image already has the key '${key}'`);
      continue;
    }
    out.push({ key, file, contentType, data, sha256: createHash('sha256').update(data).digest('hex'), ...size });
  }
  return out;
}

function readContentBlocks(folder: string, label: string, issues: IssueList): ContentBlockDef[] {
  if (!existsSync(folder)) return [];
  const out: ContentBlockDef[] = [];
  for (const name of readdirSync(folder).sort()) {
    if (!name.endsWith('.html')) continue;
    const file = `${label}/${name}`;
    const { block, issues: found } = parseContentBlock(readFileSync(path.join(folder, name), 'utf8'), name.replace(/\.html$/, ''));
    for (const i of found) issues.add(file, i.path, i.message);
    if (block && out.some((b) => b.name === block.name))
      issues.add(file, '/front-matter/name', `another block is already named '${block.name}'`);
    else if (block) out.push(block);
  }
  return out;
}

/**
 * Every HTML field of a schema-valid folder sanitised in place: the storefront renders these strings as they
 * are stored, so this is the one place seller HTML is cleaned (DESIGN.md section 4). The fields are those the
 * schemas type as HTML: descriptions of events, ticket groups and ticket types, config terms_html, and
 * content blocks (the repo defaults and the seller's); and the SVG markup of seat maps (other_elements).
 */
function sanitizeHtmlFields(config: Record<string, any>, catalog: CatalogFile, blocks: ContentBlockDef[]): ContentBlockDef[] {
  if (typeof config.terms_html === 'string') config.terms_html = sanitizeSellerHtml(config.terms_html);
  const clean = (item: { description?: string }) => {
    if (item.description !== undefined) item.description = sanitizeSellerHtml(item.description);
  };
  for (const map of catalog.seat_maps ?? []) {
    if (map.other_elements !== undefined) map.other_elements = sanitizeSellerSvg(map.other_elements);
  }
  for (const event of catalog.events) {
    clean(event);
    for (const group of event.ticket_groups) {
      clean(group);
      group.types.forEach(clean);
    }
  }
  return blocks.map((block) => ({ ...block, html: sanitizeSellerHtml(block.html) }));
}

/** Reads a seller folder and validates every file against its schema; throws CatalogError listing every problem. */
export function readSellerFolder(dir: string, opts: { defaultContentBlocksDir?: string } = {}): SellerFolder {
  const issues = new IssueList();
  const { config: configFn, catalog: catalogFn, strings: stringsFn, staff: staffFn } = getValidators();
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    issues.add(dir, '', 'seller folder not found');
    issues.throwIfAny();
  }
  const config = readJson(dir, 'config.json', issues);
  const catalog = readJson(dir, 'catalog.json', issues);
  const strings = readJson(dir, 'strings.json', issues, true) ?? {};
  validate('config.json', config, configFn, issues);
  validate('catalog.json', catalog, catalogFn, issues);
  validate('strings.json', strings, stringsFn, issues);
  const staff = readJson(dir, 'staff.json', issues, true) ?? [];
  validate('staff.json', staff, staffFn, issues);
  const images = readImages(dir, issues);
  // Repo defaults are named relative to the seller folder (../../content-blocks/x.html) so they differ from its own.
  const defaultsDir = opts.defaultContentBlocksDir ?? DEFAULT_CONTENT_BLOCKS_DIR;
  const defaults = readContentBlocks(defaultsDir, path.relative(dir, defaultsDir).split(path.sep).join('/'), issues);
  const own = readContentBlocks(path.join(dir, 'content-blocks'), 'content-blocks', issues);
  issues.throwIfAny();
  const contentBlocks = sanitizeHtmlFields(config as Record<string, any>, catalog as CatalogFile, mergeContentBlocks(defaults, own));
  return {
    dir,
    config: config as Record<string, any>,
    catalog: catalog as CatalogFile,
    strings: strings as Record<string, string>,
    contentBlocks,
    images,
    staff: staff as StaffDef[],
  };
}

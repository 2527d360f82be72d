import fc from 'fast-check';
import { generateSync } from 'json-schema-faker';
import type { FastifyInstance } from 'fastify';

/**
 * Requests generated from the API's own contract (issue 20, finding 4): for every operation of the OpenAPI document,
 * json-schema-faker makes params, query, headers and body that satisfy the route's schemas, then fast-check swaps a
 * few of their values for hostile ones (control characters, lone surrogates, huge or deep values, wrong types, ids of
 * real rows) or leaves them valid, so requests reach the services as well as the validation. Used by
 * tests/api/property.test.ts (a few thousand in `npm test`) and bench/fuzz.ts (100,000 in `npm run bench`).
 */
export interface FuzzRoute {
  method: string;
  /** The OpenAPI path, `/api/cart/{id}`. */
  path: string;
  params?: JsonSchema;
  query?: JsonSchema;
  headers?: JsonSchema;
  body?: JsonSchema;
}
type JsonSchema = Record<string, unknown>;

export interface FuzzRequest {
  method: string;
  url: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

/** The operations of the document, with a schema per request part (parameters grouped by where they go). */
export function fuzzRoutes(doc: { paths: Record<string, Record<string, any>> }): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const part = (where: string): JsonSchema | undefined => {
        const ps = (op.parameters ?? []).filter((p: any) => p.in === where);
        if (ps.length === 0) return undefined;
        return {
          type: 'object',
          properties: Object.fromEntries(ps.map((p: any) => [p.name, p.schema ?? { type: 'string' }])),
          required: ps.filter((p: any) => p.required).map((p: any) => p.name),
        };
      };
      routes.push({
        method: method.toUpperCase(),
        path,
        params: part('path'),
        query: part('query'),
        headers: part('header'),
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return routes;
}

/** Values that have broken servers: each may replace any value of a generated request. */
const HOSTILE: unknown[] = [
  '',
  '\u0000',
  'a\u0000b',
  '\u001b[31m',
  'x\ud800',
  '\udfff',
  'x'.repeat(5000),
  '-1',
  '0',
  '1e400',
  '99999999999999999999999',
  '%00',
  "' OR 1=1 --",
  '../../etc/passwd',
  '2026-02-30',
  '0000-00-00',
  '24:00',
  '00000000-0000-0000-0000-000000000000',
  'Ω≈ç√ 😀',
  null,
  -1,
  0,
  1e308,
  Number.MAX_SAFE_INTEGER,
  3.5,
  true,
  {},
  [],
  { a: { b: { c: { d: {} } } } },
  Array.from({ length: 200 }, () => 'x'),
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Generates a value of a schema, or nothing when the schema has none to give (a draft json-schema-faker cannot satisfy). */
function generate(schema: JsonSchema | undefined, seed: number): unknown {
  if (!schema) return undefined;
  try {
    return generateSync(schema as never, { seed, optionalsProbability: 0.6, maxDepth: 4, maxDefaultItems: 3 });
  } catch {
    return {};
  }
}

/** Every place of a value where a leaf sits (object keys and array indices), to replace one. */
function leaves(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (value && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    const inner = entries.flatMap(([k, v]) => leaves(v, [...at, k]));
    return inner.length ? [at, ...inner] : [at];
  }
  return [at];
}

function replaceAt(root: unknown, at: Array<string | number>, value: unknown): unknown {
  if (at.length === 0) return value;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  copy[at[0]] = replaceAt(copy[at[0]], at.slice(1), value);
  return copy;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;
const TIME = /^\d{2}:\d{2}$/;

/**
 * Makes a generated value one a real client would send, most of the time: the demo seller, ids of real rows (so
 * requests get past "not found" into the rules), dates and times that exist near today, small page sizes. A pattern
 * only says "four digits, dash, two digits..."; month 35 is the services' to refuse, and they do.
 */
function realistic(value: unknown, known: string[], pick: () => number, key = ''): unknown {
  if (typeof value === 'string') {
    if (key === '_seller') return pick() < 0.9 ? 'demo' : value;
    if (UUID.test(value)) return known.length && pick() < 0.7 ? known[Math.floor(pick() * known.length)] : value;
    const day = () => new Date(Date.now() + Math.floor((pick() - 0.3) * 60) * 86_400_000);
    if (DATE.test(value) && pick() < 0.8) return day().toISOString().slice(0, 10);
    if (DATE_TIME.test(value) && pick() < 0.8) return day().toISOString();
    if (TIME.test(value) && pick() < 0.8) return `${String(Math.floor(pick() * 24)).padStart(2, '0')}:${pick() < 0.5 ? '00' : '30'}`;
    return value;
  }
  if (typeof value === 'number' && (key === '_limit' || key === 'quantity')) return pick() < 0.8 ? 1 + Math.floor(pick() * 10) : value;
  if (Array.isArray(value)) return value.map((v) => realistic(v, known, pick, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, realistic(v, known, pick, k)]));
  return value;
}

/** Percent-encodes every byte of the text's UTF-8 (a lone surrogate, which encodeURIComponent refuses, becomes U+FFFD). */
const encodeSegment = (text: string) => [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const asText = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** One generated request for a route: valid by its schemas, with 0 to 2 values made hostile. */
export function requestArbitrary(route: FuzzRoute, known: () => string[]): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      picks: fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 64, maxLength: 64 }),
      // Half the requests valid as generated, the others with one or two values made hostile.
      mutations: fc.oneof(
        fc.constant([]),
        fc.array(
          fc.record({
            part: fc.constantFrom('params', 'query', 'headers', 'body'),
            where: fc.nat(),
            value: fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 2 })),
          }),
          { minLength: 1, maxLength: 2 },
        ),
      ),
      extraKey: fc.option(fc.constantFrom('x', '__proto__', 'constructor', '_seller'), { freq: 5 }),
    })
    .map(({ seed, picks, mutations, extraKey }) => {
      let i = 0;
      const pick = () => picks[i++ % picks.length];
      const parts: Record<'params' | 'query' | 'headers' | 'body', unknown> = {
        params: realistic(generate(route.params, seed), known(), pick),
        query: realistic(generate(route.query, seed + 1), known(), pick),
        headers: generate(route.headers, seed + 2),
        body: realistic(generate(route.body, seed + 3), known(), pick),
      };
      for (const m of mutations) {
        if (parts[m.part] === undefined) continue;
        const spots = leaves(parts[m.part]);
        parts[m.part] = replaceAt(parts[m.part], spots[m.where % spots.length], m.value);
      }
      if (extraKey && parts.body && typeof parts.body === 'object' && !Array.isArray(parts.body)) {
        parts.body = { ...(parts.body as object), [extraKey]: 'x' };
      }
      const params = (parts.params ?? {}) as Record<string, unknown>;
      const url = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeSegment(asText(params[name] ?? 'x') || 'x'));
      const flat = (v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asText(x)])) : {};
      return {
        method: route.method,
        url,
        query: flat(parts.query),
        headers: flat(parts.headers),
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: parts.body ?? {} }),
      };
    });
}

export interface Outcome {
  status: number;
  code?: string;
  what: string;
}

/** Sends one generated request as a browser would (the ecomm header, the cookie it was given, an address of its own). */
export async function send(app: FastifyInstance, req: FuzzRequest, cookie: string | null, address: string): Promise<Outcome> {
  let payload: string | undefined;
  try {
    payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  } catch {
    payload = '{}';
  }
  const res = await app.inject({
    method: req.method as 'GET',
    url: req.url,
    query: req.query,
    remoteAddress: address,
    headers: {
      ...req.headers,
      'x-ticketing-app': 'ecomm',
      ...(cookie ? { cookie } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload } : {}),
  });
  let code: string | undefined;
  if (res.statusCode >= 400) {
    try {
      code = res.json()?._data?.[0]?._code;
    } catch {
      code = undefined;
    }
  }
  const what = `${req.method} ${req.url} ${JSON.stringify(req.query).slice(0, 200)} ${(payload ?? '').slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
  return { status: res.statusCode, code, what };
}

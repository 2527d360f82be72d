import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describeEachDatabase } from '../helpers/db';
import { buildTestApp, testDeps } from '../helpers/app';
import { buildApp } from '../../server/app';
import { registerContractCheck } from '../../server/http/contract-check';
import { Row } from '../../src/contract/primitives';

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };

describeEachDatabase('GET /api/openapi.json', (ctx) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(testDeps(ctx()));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const res = await app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every /api route once, each with a response schema for its success and its 4xx answers', async () => {
    const doc = (await app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const routes = (app as unknown as { apiRoutes: Array<{ method: string; url: string }> }).apiRoutes
      // The document itself and its browsable page are not operations of the API.
      .filter((r) => r.url.startsWith('/api/') && r.url !== '/api/openapi.json' && !r.url.startsWith('/api/docs'));
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const expected = routes.map((r) => `${r.method} ${r.url.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    expect(listed.sort()).toEqual([...new Set(expected)].sort());
    expect(listed.length).toBeGreaterThan(35);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        // Success is a 2xx with a body schema, or for a redirect (SSO start) its 3xx.
        const ok = Object.entries(op.responses ?? {}).find(([code]) => /^2\d\d$/.test(code));
        const redirect = Object.keys(op.responses ?? {}).some((code) => /^3\d\d$/.test(code));
        expect(ok || redirect, `${method} ${path} declares its success`).toBeTruthy();
        if (ok) expect(Object.values(ok[1].content ?? {})[0]?.schema, `${method} ${path} 2xx schema`).toBeTruthy();
        expect(op.responses?.['4XX'] ?? op.responses?.['4xx'], `${method} ${path} declares its 4xx answer`).toBeTruthy();
      }
    }
    // The cached variants serve the same handlers and are not listed twice.
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/cached_api'))).toBe(false);
  });

  it('answers choose no branch by validating: no anyOf, oneOf or if inside an answer, nullable values are `type` lists', async () => {
    // fast-json-stringify writes an anyOf by running an ajv validator of each option on every value, compiled on the
    // route's first answer (OrNull and Literals in src/contract/primitives.ts say why). Only a whole answer that is one
    // of several (the checkout: an order, or the cart it could not yet book) may be a union.
    const doc = (await app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const branching: string[] = [];
    const walk = (schema: unknown, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      for (const keyword of ['anyOf', 'oneOf', 'if']) if (keyword in schema) branching.push(`${where}/${keyword}`);
      for (const [key, value] of Object.entries(schema)) walk(value, `${where}/${key}`);
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [code, answer] of Object.entries(op.responses ?? {})) {
          const schema = Object.values(answer.content ?? {})[0]?.schema as { anyOf?: unknown[] } | undefined;
          const options = schema?.anyOf ?? [schema];
          options.forEach((option, i) => walk(option, `${method} ${path} ${code}${schema?.anyOf ? ` option ${i}` : ''}`));
        }
      }
    }
    expect(branching).toEqual([]);
  });

  it('shows a browsable page outside production, none in production', async () => {
    expect((await app.inject({ url: '/api/docs/' })).statusCode).toBe(200);
    const deps = testDeps(ctx());
    const prod = await buildApp({ ...deps, config: { ...deps.config, production: true } });
    expect((await prod.inject({ url: '/api/docs/' })).statusCode).toBe(404);
    expect((await prod.inject({ url: '/api/openapi.json' })).statusCode).toBe(200);
    await prod.close();
  });
});

describe('the contract check of the API tests', () => {
  const build = async (answer: unknown) => {
    const violations: string[] = [];
    const app = Fastify();
    registerContractCheck(app, (m) => violations.push(m));
    app.get('/thing', { schema: { response: { 200: Row({ id: Type.String(), n: Type.Integer() }) } } }, async () => answer);
    await app.ready();
    const res = await app.inject({ url: '/thing' });
    await app.close();
    return { status: res.statusCode, violations };
  };

  it('passes an answer its schema names exactly', async () => {
    expect(await build({ id: 'a', n: 1 })).toEqual({ status: 200, violations: [] });
  });

  it('fails a field the server sends but the schema omits (which serialising alone would drop silently)', async () => {
    const { status, violations } = await build({ id: 'a', n: 1, secret: 'x' });
    expect(status).toBe(500);
    expect(violations.join()).toMatch(/GET \/thing 200 does not match its schema: .*additional properties/);
  });

  it('fails a wrong type and a missing field', async () => {
    expect((await build({ id: 'a', n: 'one' })).violations.join()).toMatch(/must be integer/);
    expect((await build({ id: 'a' })).violations.join()).toMatch(/must have required property 'n'/);
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../helpers/db';
import { Browser, buildTestApp, testClock, testDeps } from '../helpers/app';
import { addSession, insertCartFixture, type CartFixture } from '../helpers/cart-fixtures';

/**
 * Input (issue 20, finding 4): 18 of 391 malformed requests answered 500 (U+0000 in strings, `?_seller=%00`, a
 * 10,000-deep or lone-surrogate `additional_info`, survey answers keyed by a non-uuid), anonymous POST user took any
 * object up to 1 MiB, and surveys stored properties they do not define. Every string of every request schema now
 * refuses control characters, additional info and survey answers are flat, bounded and closed, and POST user is
 * limited per address.
 */
const PASSWORD_FIELDS = /\.(password|password_confirm)$/;

/** Every string schema of every route's params, query, headers and body, with where it is. */
function requestStrings(doc: any): Array<{ where: string; schema: any }> {
  const found: Array<{ where: string; schema: any }> = [];
  const walk = (s: any, where: string) => {
    if (!s || typeof s !== 'object') return;
    const types = [s.type].flat();
    if (types.includes('string')) found.push({ where, schema: s });
    for (const [k, v] of Object.entries<any>(s.properties ?? {})) walk(v, `${where}.${k}`);
    for (const [k, v] of Object.entries<any>(s.patternProperties ?? {})) walk(v, `${where}{${k}}`);
    if (s.items) walk(s.items, `${where}[]`);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${where}{*}`);
    for (const k of ['anyOf', 'oneOf', 'allOf']) (s[k] ?? []).forEach((v: any, i: number) => walk(v, `${where}|${i}`));
  };
  for (const [path, ops] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      for (const p of op.parameters ?? []) walk(p.schema, `${method.toUpperCase()} ${path} ${p.in}:${p.name}`);
      walk(op.requestBody?.content?.['application/json']?.schema, `${method.toUpperCase()} ${path} body`);
    }
  }
  return found;
}

describeEachDatabase('input rules', (ctx) => {
  let app: FastifyInstance;
  let fx: CartFixture;
  const clock = testClock();
  const db = () => ctx().db;
  const code = (r: { body: any }) => r.body?._data?.[0]?._code;

  beforeAll(async () => {
    fx = await insertCartFixture(db(), { now: clock.now() });
    app = await buildTestApp(testDeps(ctx(), clock.now));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('every request string has a pattern, a list of values or a format (passwords excepted)', async () => {
    const doc = (app as unknown as { swagger(): unknown }).swagger();
    const strings = requestStrings(doc);
    expect(strings.length).toBeGreaterThan(100);
    const open = strings.filter(({ where, schema }) => !schema.pattern && !schema.enum && !schema.format && !PASSWORD_FIELDS.test(where));
    expect(open.map((s) => s.where)).toEqual([]);
    // The pattern of free text refuses control characters and lone surrogates, and takes any other character.
    const text = strings.find(({ where }) => where.endsWith('/user body.first_name'))!.schema;
    const re = new RegExp(text.pattern, 'u');
    for (const bad of ['a\u0000b', 'a\u0007', 'tab\there', 'x\ud800', '\udc00y']) expect(re.test(bad), JSON.stringify(bad)).toBe(false);
    for (const good of ['Zoë', 'Ａｄａ', '😀 Smile', "O'Brien-Lovelace"]) expect(re.test(good), good).toBe(true);
  });

  it('refuses control characters and lone surrogates with 400, and writes nothing', async () => {
    const b = new Browser(app, '10.70.0.1');
    const before = await db().selectFrom('identity').select('id').execute();
    for (const first_name of ['Ada\u0000', 'Ada\u001b[31m', 'Ada\ud800']) {
      const r = await b.post(`/api/user?_seller=${fx.slug}`, { first_name, last_name: 'Lovelace', email: 'ada@example.org' });
      expect([r.status, code(r)], JSON.stringify(first_name)).toEqual([400, 'validation_failed']);
    }
    expect(await db().selectFrom('identity').select('id').execute()).toHaveLength(before.length);
    const session = await addSession(db(), fx, { from: clock.now() });
    const admit = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add: [{ ticket_type_id: fx.types.adult, event_session_id: session, admit_name: 'Ada\u0000Lovelace' }],
    });
    expect([admit.status, code(admit)]).toEqual([400, 'validation_failed']);
  });

  it('additional info is flat and bounded: deep, huge or oddly keyed objects are refused', async () => {
    const b = new Browser(app, '10.70.0.2');
    const person = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' };
    // 10,000 levels deep, written as text (JSON.stringify itself overflows the stack on such an object).
    const deep = `{"first_name":"Ada","last_name":"Lovelace","email":"ada@example.org","additional_info":{"nested":${'{"a":'.repeat(10_000)}"x"${'}'.repeat(10_000)}}}`;
    const deepAnswer = await app.inject({
      method: 'POST',
      url: `/api/user?_seller=${fx.slug}`,
      remoteAddress: '10.70.0.2',
      headers: { 'content-type': 'application/json', 'x-ticketing-app': 'ecomm' },
      payload: deep,
    });
    expect([deepAnswer.statusCode, deepAnswer.json()._data[0]._code]).toEqual([400, 'validation_failed']);
    const cases: unknown[] = [
      { nested: { a: 1 } },
      Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
      { 'bad key!': 'v' },
      { note: 'x'.repeat(2001) },
      { lone: '\ud800' },
    ];
    for (const additional_info of cases) {
      const r = await b.post(`/api/user?_seller=${fx.slug}`, { ...person, additional_info });
      expect([r.status, code(r)], JSON.stringify(additional_info).slice(0, 80)).toEqual([400, 'validation_failed']);
    }
    const ok = await b.post(`/api/user?_seller=${fx.slug}`, {
      ...person,
      additional_info: { newsletter: true, visits: 3, note: 'Line 1\nLine 2' },
    });
    expect(ok.status).toBe(200);
  });

  it('survey answers are keyed by ticket group id and closed: answers to questions not asked are refused', async () => {
    const b = new Browser(app, '10.70.0.3');
    const session = await addSession(db(), fx, { from: clock.now() });
    const add = [{ ticket_type_id: fx.types.surveyed, event_session_id: session }];
    const notUuid = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add,
      additional_info: { 'not-a-group': { visit_reason: 'art' } },
    });
    expect([notUuid.status, code(notUuid)]).toEqual([400, 'validation_failed']);
    const extra = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add,
      additional_info: { [fx.groups.survey]: { visit_reason: 'art', age: 40, smuggled: 'x'.repeat(900) } },
    });
    expect([extra.status, code(extra)]).toEqual([400, 'additional_info_validation_failed']);
    expect(extra.body._data[0]._extra.errors).toEqual([{ field: '', message: 'must NOT have additional properties' }]);
    const ok = await b.post(`/api/cart/modify?_seller=${fx.slug}`, {
      add,
      additional_info: { [fx.groups.survey]: { visit_reason: 'art', age: 40 } },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.cart._data[0].additional_info[fx.groups.survey]).toEqual({ visit_reason: 'art', age: 40 });
  });

  it('a malformed seller reference is a 404 on every route, never a database error', async () => {
    for (const url of ['/api/config', '/api/form_validator/identity', '/api/events/available', '/api/my/user']) {
      const r = await app.inject({ method: 'GET', url: `${url}?_seller=%00` });
      expect(r.statusCode, url).toBeLessThan(500);
      expect(r.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(typeof r.json()._data[0]._code, url).toBe('string');
    }
  });

  it('POST user is limited per address; another address is not held back', async () => {
    const b = new Browser(app, '10.70.0.9');
    const person = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org' };
    const answers = [];
    for (let i = 0; i < 101; i++) answers.push((await b.post(`/api/user?_seller=${fx.slug}`, person)).status);
    expect(answers.slice(0, 100).every((s) => s === 200)).toBe(true);
    expect(answers[100]).toBe(429);
    expect((await new Browser(app, '10.70.0.10').post(`/api/user?_seller=${fx.slug}`, person)).status).toBe(200);
  });
});

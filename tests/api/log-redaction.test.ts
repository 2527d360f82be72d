import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { ECOMM, testDeps } from '../helpers/app';
import { loadDemo } from '../helpers/auth';
import { buildApp } from '../../server/app';
import { REDACTED, serializeError } from '../../server/http/redact';

/** Issue 20, finding 8: a failed POST user logged the first name, last name and e-mail through the error's params. */
describe('the log form of an error', () => {
  it('drops the bound values and detail of a database error and redacts personal fields', () => {
    const err = Object.assign(new Error('duplicate key value violates unique constraint "identity_email_uq"'), {
      code: '23505',
      query: 'insert into identity (first_name, email) values ($1, $2)',
      params: ['Ada', 'ada@example.org'],
      detail: 'Key (email)=(ada@example.org) already exists.',
      first_name: 'Ada',
      cause: Object.assign(new Error('inner'), { parameters: ['ada@example.org'] }),
    });
    const logged = JSON.stringify(serializeError(err));
    expect(logged).not.toContain('Ada');
    expect(logged).not.toContain('ada@example.org');
    expect(logged).toContain('identity_email_uq');
    expect(logged).toContain('23505');
    expect((serializeError(err) as Record<string, unknown>).first_name).toBe(REDACTED);
  });
});

describeEachDatabase('errors in the server log', (ctx) => {
  let app: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    await loadDemo(ctx().db, new Date());
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp(testDeps(ctx()), { logger: { level: 'info', stream } });
    // A failure deep in a service, shaped like a PGlite error: the statement's values ride on it.
    app.post('/api/_test_failure', async (request) => {
      const body = request.body as { first_name: string; email: string };
      throw Object.assign(new Error('insert failed'), {
        code: 'XX000',
        params: [body.first_name, body.email],
        detail: `Key (email)=(${body.email})`,
      });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a 500 logs the failure without the names and e-mail of the request', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/_test_failure',
      headers: ECOMM,
      payload: { first_name: 'Grace-Zq81', last_name: 'Hopper-Zq81', email: 'grace-zq81@example.org' },
    });
    expect(res.statusCode).toBe(500);
    const log = lines.join('');
    expect(log).toContain('unhandled error');
    expect(log).toContain('insert failed');
    for (const secret of ['Grace-Zq81', 'Hopper-Zq81', 'grace-zq81@example.org']) expect(log).not.toContain(secret);
  });

  it('a value the database cannot store (NUL in text, class 22) is a 400 validation_failed, not a 500', async () => {
    lines.length = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/api/user?_seller=demo',
      headers: ECOMM,
      payload: {
        first_name: 'Ada\u0000Zq82',
        last_name: 'Lovelace-Zq82',
        email: 'ada-zq82@example.org',
        email_confirm: 'ada-zq82@example.org',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()._data[0]._code).toBe('validation_failed');
    for (const secret of ['Zq82', 'ada-zq82@example.org']) expect(lines.join('')).not.toContain(secret);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { describeEachDatabase } from '../helpers/db';
import { buildTestApp, testDeps } from '../helpers/app';
import { loadDemo } from '../helpers/auth';
import { formKey } from '../../src/forms/precompiled';
import { surveyFormSchema } from '../../src/domain/survey-schema';
import type { SurveySpec } from '../../src/api/events';

/** GET form_validator/{key}: only the storefront's own forms are compiled, a schema from outside never is. */
describeEachDatabase('form validators', (ctx) => {
  let app: FastifyInstance;
  let surveyKey: string;
  beforeAll(async () => {
    await loadDemo(ctx().db, new Date());
    app = await buildTestApp(testDeps(ctx()));
    const events = (await app.inject({ url: '/api/events/available?_seller=demo' })).json().event_template._data as { id: string }[];
    for (const event of events) {
      const body = (await app.inject({ url: `/api/events/${event.id}?_seller=demo&_embed=ticket_group` })).json();
      const spec = (body.ticket_group?._data ?? [])
        .map((g: { additional_info_spec: SurveySpec | null }) => g.additional_info_spec)
        .find(Boolean);
      if (spec) {
        surveyKey = formKey(surveyFormSchema(spec).schema);
        break;
      }
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the purchaser form and a demo survey (as the storefront builds it from the API answer) are served as modules', async () => {
    expect(surveyKey).toBeTruthy();
    for (const key of ['identity-form.schema.json', surveyKey]) {
      const res = await app.inject({ url: `/api/form_validator/${key}` });
      expect(res.statusCode, key).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.body).toContain('export default function validators(require)');
      expect(res.body).toContain(`exports["${key}"]`);
    }
  });

  it('a key no storefront form has is a 404; a malformed key is a 400', async () => {
    const missing = await app.inject({ url: '/api/form_validator/deadbeef' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()._data[0]._code).toBe('form_not_found');
    const bad = await app.inject({ url: `/api/form_validator/${encodeURIComponent('a/../b<script>')}` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()._data[0]._code).toBeTruthy();
  });
});

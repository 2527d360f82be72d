import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import runtimeValidator from '@rjsf/validator-ajv8';
import type { RJSFSchema } from '@rjsf/utils';
import { formKey as serverFormKey, validatorModule } from '../../server/forms/validators';
import { formKey, formValidatorUrl, loadFormValidator, retryFailedFormValidators } from '../../src/forms/precompiled';
import { surveyFormSchema } from '../../src/domain/survey-schema';
import { identitySchema } from '../../src/screens/checkout/identity-form';
import type { SurveySpec } from '../../src/api/events';

const dir = mkdtempSync(path.join(tmpdir(), 'validators-'));
let serial = 0;

/** The form's validator exactly as the browser gets it: the server's module, loaded as a module file. */
async function precompiled(schema: RJSFSchema) {
  const seen: string[] = [];
  const validator = await loadFormValidator('/api/', schema, async (url) => {
    seen.push(url);
    const file = path.join(dir, `v${++serial}.mjs`);
    writeFileSync(file, validatorModule(schema));
    return import(/* @vite-ignore */ pathToFileURL(file).href);
  });
  return { validator, seen };
}

const demoSurveys = (
  JSON.parse(readFileSync('sellers/demo/catalog.json', 'utf8')) as { events: { ticket_groups?: { additional_info_spec?: SurveySpec }[] }[] }
).events
  .flatMap((e) => e.ticket_groups ?? [])
  .map((g) => g.additional_info_spec)
  .filter((s): s is SurveySpec => Boolean(s));

/** A survey with every kind of question a seller may ask. */
const richSurvey: SurveySpec = {
  type: 'object',
  title: 'About you',
  required: ['visits', 'interests'],
  properties: {
    interests: {
      type: 'array',
      items: { type: 'string', enum: ['art', 'science', 'history'] },
      uniqueItems: true,
      minItems: 1,
      propertyOrder: 3,
    },
    visits: { type: 'integer', minimum: 0, maximum: 50, propertyOrder: 1 },
    member: { type: 'boolean', propertyOrder: 2 },
    birthday: { type: 'string', format: 'date' },
    note: { type: 'string', maxLength: 20, pattern: '^[^<>]*$' },
  },
};

const messages = (errors: { property?: string; name?: string; message?: string }[]) =>
  errors.map((e) => `${e.property} ${e.name} ${e.message}`).sort();

describe('precompiled form validators', () => {
  it('the browser and the server name a form the same way, and ask for it under the API base', () => {
    expect(formKey(identitySchema)).toBe('identity-form.schema.json');
    const survey = surveyFormSchema(richSurvey).schema;
    expect(formKey(survey)).toBe(serverFormKey(survey));
    expect(formValidatorUrl('/api/', 'identity-form.schema.json')).toBe('/api/form_validator/identity-form.schema.json');
  });

  it('the module builds no code from strings: no eval, no Function', () => {
    for (const schema of [identitySchema, surveyFormSchema(richSurvey).schema]) {
      const code = validatorModule(schema);
      expect(code).not.toMatch(/\beval\s*\(|new Function|Function\s*\(/);
    }
  });

  it("the demo seller asks survey questions (so the cases below cover a real seller's forms)", () => {
    expect(demoSurveys.length).toBeGreaterThan(0);
  });

  const cases: [string, RJSFSchema][] = [
    ['the purchaser form', identitySchema],
    ['a survey with every kind of question', surveyFormSchema(richSurvey).schema],
    ...demoSurveys.map((spec, i): [string, RJSFSchema] => [`demo survey ${i + 1} (${spec.title})`, surveyFormSchema(spec).schema]),
  ];
  it.each(cases)('%s: the precompiled validator finds exactly the errors ajv finds at run time', async (_name, schema) => {
    const { validator, seen } = await precompiled(schema);
    expect(seen).toEqual([formValidatorUrl('/api/', formKey(schema))]);
    const keys = Object.keys((schema.properties ?? {}) as object);
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer({ min: -5, max: 60 }),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constantFrom('art', 'science', '2026-02-30', '2026-11-22', 'a@b.co', 'not an email', '10024', 'x<y'),
      fc.array(fc.constantFrom('art', 'science', 'history', 'x'), { maxLength: 4 }),
      fc.constant(null),
    );
    const formData = fc.dictionary(fc.constantFrom(...keys), value);
    await fc.assert(
      fc.asyncProperty(formData, async (data) => {
        const compiled = validator.validateFormData(data, schema);
        const atRunTime = runtimeValidator.validateFormData(data, schema);
        expect(messages(compiled.errors)).toEqual(messages(atRunTime.errors));
      }),
      { numRuns: 300 },
    );
  });

  it('a failed download stays failed (no loop of requests) until the visitor asks to try again, then asks anew', async () => {
    const urls: string[] = [];
    const schema = surveyFormSchema({ ...richSurvey, title: 'Retry' }).schema;
    const failing = async (url: string) => {
      urls.push(url);
      throw new Error('offline');
    };
    await expect(loadFormValidator('/api', schema, failing)).rejects.toThrow('offline');
    await expect(loadFormValidator('/api', schema, failing)).rejects.toThrow('offline');
    expect(urls).toHaveLength(1);
    retryFailedFormValidators();
    await expect(loadFormValidator('/api', schema, failing)).rejects.toThrow('offline');
    expect(urls).toHaveLength(2);
    expect(urls[1]).toMatch(/\?attempt=\d+$/);
    retryFailedFormValidators();
    const { validator } = await precompiled(schema);
    expect(validator.isValid(schema, { visits: 1, interests: ['art'] }, schema)).toBe(true);
  });
});

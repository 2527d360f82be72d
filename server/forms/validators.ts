import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { RJSFSchema } from '@rjsf/utils';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import type { Db } from '../db';
import { PACKAGE_ROOT } from '../package-root';
import type { SurveySpec } from '../../src/contract/catalogue';
import { surveyFormSchema } from '../../src/domain/survey-schema';
import { formKey } from '../../src/contract/form-key';

/**
 * The storefront's forms validate with validators compiled here, ahead of time (ajv standalone code through
 * @rjsf/validator-ajv8), so the browser never compiles code: the Content-Security-Policy has no 'unsafe-eval',
 * and the checkout loads neither ajv's compiler nor spends its time compiling. Only schemas the storefront itself
 * defines are compiled: the purchaser form's (schemas/identity-form.schema.json) and each ticket group's survey
 * as its form shows it (src/domain/survey-schema.ts). A schema sent by a browser never is: ajv treats a schema
 * as code.
 *
 * A form names its validator by the key @rjsf looks it up with: the schema's $id, else hashForSchema(schema).
 */
export const IDENTITY_SCHEMA_FILE = path.join(PACKAGE_ROOT, 'schemas/identity-form.schema.json');

export { formKey };

/** A form's validators as an ES module: its default export takes the ajv runtime helpers the code requires
 *  (src/forms/precompiled.ts supplies them) and returns the validate functions keyed by formKey. */
export function validatorModule(schema: RJSFSchema): string {
  const code = compileSchemaValidatorsCode(schema, {});
  return `// Validators for one storefront form, compiled by ajv on the server (server/forms/validators.ts).
export default function validators(require) {
const exports = {};
${code}
return exports;
}
`;
}

const MAX_MODULES = 500;

export function createFormValidators(db: Db) {
  const identity = JSON.parse(fs.readFileSync(IDENTITY_SCHEMA_FILE, 'utf8')) as RJSFSchema;
  const modules = new Map<string, string>();

  /** The schema a key names, among the storefront's own forms, or null. */
  async function schemaFor(key: string): Promise<RJSFSchema | null> {
    if (key === formKey(identity)) return identity;
    const rows = await sql<{ spec: SurveySpec }>`
      select distinct additional_info_spec as spec from ticket_group where additional_info_spec is not null`.execute(db);
    for (const { spec } of rows.rows) {
      const { schema } = surveyFormSchema(spec);
      if (formKey(schema) === key) return schema;
    }
    return null;
  }

  return {
    /** The validator module of the form named by `key`, or null when no storefront form has that key. */
    async module(key: string): Promise<string | null> {
      const cached = modules.get(key);
      if (cached) return cached;
      const schema = await schemaFor(key);
      if (!schema) return null;
      const code = validatorModule(schema);
      if (modules.size >= MAX_MODULES) modules.delete(modules.keys().next().value!);
      modules.set(key, code);
      return code;
    },
  };
}

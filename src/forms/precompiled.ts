import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import equal from 'ajv/dist/runtime/equal';
import ucs2length from 'ajv/dist/runtime/ucs2length';
import { fullFormats } from 'ajv-formats/dist/formats';
import { formKey } from '../contract/form-key';

/**
 * Forms validate with validators the server compiled (server/forms/validators.ts): no code is compiled in the
 * browser, so the Content-Security-Policy needs no 'unsafe-eval' and ajv's compiler never downloads. The server's
 * module asks for ajv's runtime helpers by name; these are the ones ajv's standalone code uses.
 */
// CommonJS modules with a default export: bundlers disagree on whether the default import is the function or
// the module object holding it.
const fn = (m: unknown) => (typeof m === 'function' ? m : (m as { default: unknown }).default);
const RUNTIME: Record<string, unknown> = {
  'ajv/dist/runtime/equal': { default: fn(equal) },
  'ajv/dist/runtime/ucs2length': { default: fn(ucs2length) },
  'ajv-formats/dist/formats': { fullFormats },
};

export function runtimeRequire(name: string): unknown {
  if (!(name in RUNTIME)) throw new Error(`form validator needs ${name}, which the storefront does not supply`);
  return RUNTIME[name];
}

export { formKey };

export const formValidatorUrl = (apiBaseUrl: string, key: string) =>
  `${apiBaseUrl.replace(/\/$/, '')}/form_validator/${encodeURIComponent(key)}`;

type ValidatorModule = { default: (require: (name: string) => unknown) => Record<string, unknown> };

const loaded = new Map<string, Promise<ValidatorType>>();
const failed = new Set<string>();
let attempt = 0;

/**
 * The form's validator, downloaded once per schema. A failed download stays failed (React asks again on every
 * render, and would loop) until retryFailedFormValidators().
 */
export function loadFormValidator(
  apiBaseUrl: string,
  schema: RJSFSchema,
  importModule: (url: string) => Promise<ValidatorModule> = (url) => import(/* @vite-ignore */ url),
): Promise<ValidatorType> {
  const key = formKey(schema);
  let validator = loaded.get(key);
  if (!validator) {
    const url = formValidatorUrl(apiBaseUrl, key) + (attempt ? `?attempt=${attempt}` : '');
    validator = importModule(url).then(
      (module) => createPrecompiledValidator(module.default(runtimeRequire) as never, schema) as ValidatorType,
    );
    validator.catch(() => failed.add(key));
    loaded.set(key, validator);
  }
  return validator;
}

/** The visitor asked to try again: the failed forms are downloaded anew, under a new address (the browser keeps
 *  the failure of a module address for the life of the page). */
export function retryFailedFormValidators(): void {
  attempt += 1;
  for (const key of failed) loaded.delete(key);
  failed.clear();
}

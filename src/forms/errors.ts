import type { TFunction } from 'i18next';

/** The parts of an @rjsf validation error the translation needs (RJSFValidationError). */
export interface FormError {
  name?: string;
  property?: string;
  message?: string;
  params?: Record<string, unknown>;
  stack: string;
  schemaPath?: string;
}

/** ajv keywords we have a sentence for; anything else falls back to the generic 'invalid' text. */
const KNOWN = ['required', 'maxLength', 'minLength', 'pattern', 'format', 'minimum', 'maximum', 'enum', 'type', 'const'];

/**
 * Replaces ajv's English-ish messages with translated ones (checkout.fieldErrors.*). A schema can name
 * its own message for a keyword with `errorMessages: { pattern: 'i18n.key' }` on the property.
 */
export function translateErrors(errors: FormError[], t: TFunction, customKeys: Record<string, Record<string, string>> = {}): FormError[] {
  return errors.map((error) => {
    const name = error.name ?? '';
    const field = fieldOf(error);
    const custom = customKeys[field]?.[name];
    const params = { ...(error.params ?? {}) } as Record<string, unknown>;
    let message: string;
    if (custom) message = t(custom, params);
    else if (KNOWN.includes(name)) message = t(`checkout.fieldErrors.${name}`, flatten(params));
    else message = t('checkout.fieldErrors.invalid');
    return { ...error, message, stack: message };
  });
}

/** The top-level property an error belongs to ('.email' or '/email' -> 'email'; a required error names the missing one). */
export function fieldOf(error: FormError): string {
  if (error.name === 'required' && typeof error.params?.missingProperty === 'string') {
    return error.params.missingProperty.replace(/^[./]/, '');
  }
  return (error.property ?? '').replace(/^[./]/, '').split(/[./]/)[0];
}

function flatten(params: Record<string, unknown>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'string' || typeof v === 'number') out[k] = v;
    else if (Array.isArray(v)) out[k] = v.join(', ');
  }
  return out;
}

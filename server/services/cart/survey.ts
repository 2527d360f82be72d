import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { DomainError } from '../errors';

/**
 * Survey answers (additional info) are keyed by ticket group id and checked against the group's
 * additional_info_spec: a JSON-Schema-like `{ properties, required }` (spec section 3, "Survey spec").
 */
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
addFormats(ajv);
const cache = new Map<string, ValidateFunction>();

export type SurveySpec = { properties?: Record<string, any>; required?: string[] } & Record<string, unknown>;

function compile(spec: SurveySpec): ValidateFunction {
  const key = JSON.stringify(spec);
  let fn = cache.get(key);
  if (!fn) {
    // Closed: an answer to a question the survey does not ask is refused, not stored (issue 20, finding 4).
    fn = ajv.compile({ type: 'object', properties: spec.properties ?? {}, required: spec.required ?? [], additionalProperties: false });
    if (cache.size > 500) cache.clear();
    cache.set(key, fn);
  }
  return fn;
}

/** Empty strings count as unanswered (spec section 5: "empty strings dropped"). */
export function cleanAnswers(answers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(answers ?? {}).filter(([, v]) => v !== '' && v !== null && v !== undefined));
}

const failed = (groupId: string, errors: Array<{ field: string; message: string }>) =>
  new DomainError('additional_info_validation_failed', 'Please check the answers to the questions.', 'reserve', {
    ticket_group_id: groupId,
    errors,
  });

export function validateSurvey(groupId: string, spec: SurveySpec | null, answers: unknown): Record<string, unknown> {
  if (typeof answers !== 'object' || answers === null || Array.isArray(answers)) {
    throw failed(groupId, [{ field: '', message: 'must be an object' }]);
  }
  const clean = cleanAnswers(answers as Record<string, unknown>);
  if (!spec) {
    if (Object.keys(clean).length > 0) throw failed(groupId, [{ field: '', message: 'this ticket group asks no questions' }]);
    return clean;
  }
  const tooLong = Object.entries(clean).filter(([, v]) => typeof v === 'string' && v.length > 1000);
  if (tooLong.length)
    throw failed(
      groupId,
      tooLong.map(([k]) => ({ field: k, message: 'must NOT have more than 1000 characters' })),
    );
  const validate = compile(spec);
  if (!validate(clean)) {
    throw failed(
      groupId,
      (validate.errors ?? []).map((e) => ({
        field: (e.instancePath.replace(/^\//, '') || (e.params as any)?.missingProperty) ?? '',
        message: e.message ?? 'is invalid',
      })),
    );
  }
  return clean;
}

/** Whether the answers held for a group satisfy its spec (checked again at checkout for required answers). */
export function surveyComplete(spec: SurveySpec | null, answers: unknown): boolean {
  if (!spec || !(spec.required ?? []).length) return true;
  return compile(spec)(cleanAnswers((answers ?? {}) as Record<string, unknown>));
}

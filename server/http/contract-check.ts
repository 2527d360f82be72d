import type { FastifyInstance, FastifyReply } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * Test-only contract check (issue 11): every JSON answer is validated against the response schema its route
 * declares (src/contract), before serialisation, with the rows closed. Serialising alone would drop a field the
 * schema does not name without a word; here that field, a wrong type or a missing field fails the request (a 500
 * whose reason goes to stderr), so every API test is also a contract test.
 */
export function registerContractCheck(app: FastifyInstance, onViolation: (message: string) => void = (m) => console.error(m)) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new WeakMap<object, ValidateFunction>();
  const validatorFor = (schema: object) => {
    let v = compiled.get(schema);
    if (!v) compiled.set(schema, (v = ajv.compile(schema)));
    return v;
  };

  app.addHook('preSerialization', async (request, reply: FastifyReply, payload) => {
    const responses = request.routeOptions.schema?.response as Record<string, object> | undefined;
    if (!responses) return payload;
    const status = reply.statusCode;
    const schema = responses[String(status)] ?? responses[`${String(status)[0]}xx`];
    if (!schema) {
      const message = `contract: ${request.method} ${request.routeOptions.url} answered ${status}, which it does not declare`;
      onViolation(message);
      throw new Error(message);
    }
    const validate = validatorFor(schema);
    if (!validate(JSON.parse(JSON.stringify(payload)))) {
      const message = `contract: ${request.method} ${request.routeOptions.url} ${status} does not match its schema: ${ajv.errorsText(
        validate.errors,
        { separator: '; ' },
      )}`;
      onViolation(message);
      throw new Error(message);
    }
    return payload;
  });
}

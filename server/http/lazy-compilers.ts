import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's own request validators (ajv) and response serializers (fast-json-stringify), compiled when a route first
 * needs them instead of all at start-up. Every route is registered twice (/api and /cached_api) and most are never asked
 * for by a given process, yet compiling them all took about half of buildApp's CPU time (bench/app-build.ts): every
 * `npm start` and every API test file paid it before the first request. The compilers, their options and so their
 * answers are Fastify's defaults; only the moment changes. A schema Fastify cannot compile now fails that route's
 * first request instead of the start; the API tests send every operation (openapi.test, property.test), so such a
 * schema still fails `npm test`.
 */

type Validate = ((data: unknown, ctx?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
type CompileValidator = (route: unknown) => Validate;
type CompileSerializer = (route: unknown) => (doc: unknown) => string;

/** One validator, compiled on its first use. Fastify reads `schemaEnv` (to let ajv coerce a root value) and `errors`
 *  (after a failed check) off the function, so both are passed through from the compiled one. */
function lazyValidator(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const real = () => (compiled ??= compile());
  const validate = ((data: unknown, ctx?: unknown) => {
    const fn = real();
    const result = ctx === undefined ? fn(data) : fn(data, ctx);
    validate.errors = fn.errors;
    return result;
  }) as Validate;
  Object.defineProperty(validate, 'schemaEnv', { get: () => real().schemaEnv });
  return validate;
}

type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's `schemaController.compilersFactory`: its default factories, each compiled function made on first use. */
export function lazySchemaCompilers(): { buildValidator: ValidatorFactory; buildSerializer: SerializerFactory } {
  const buildValidator = AjvCompiler();
  const buildSerializer = SerializerSelector();
  // The wrappers stand in for the functions the factories make (same calls, same answers); the cast says so.
  return {
    buildValidator: (...factoryArgs: Parameters<typeof buildValidator>) => {
      let compiler: CompileValidator | undefined;
      return (route: unknown) => lazyValidator(() => (compiler ??= buildValidator(...factoryArgs) as unknown as CompileValidator)(route));
    },
    buildSerializer: (...factoryArgs: Parameters<typeof buildSerializer>) => {
      let compiler: CompileSerializer | undefined;
      return (route: unknown) => {
        let serialize: ((doc: unknown) => string) | undefined;
        return (doc: unknown) => (serialize ??= (compiler ??= buildSerializer(...factoryArgs) as unknown as CompileSerializer)(route))(doc);
      };
    },
  } as unknown as { buildValidator: ValidatorFactory; buildSerializer: SerializerFactory };
}

import { hashForSchema, ID_KEY, type RJSFSchema } from '@rjsf/utils';

/** The key @rjsf looks a schema's validator up by, on the server that compiles it and in the browser that asks for
 *  it: the schema's $id, else its hash. */
export const formKey = (schema: RJSFSchema): string => (schema[ID_KEY] as string | undefined) ?? hashForSchema(schema);

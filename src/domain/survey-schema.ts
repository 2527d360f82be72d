import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { SurveySpec } from '../contract/catalogue';

/**
 * A ticket group's survey spec as the JSON Schema its form shows, questions ordered by their propertyOrder. The
 * server builds the same schema to compile the form's validator ahead of time (server/forms/validators.ts): the
 * two must be equal to the byte, so both come from here.
 */
export function surveyFormSchema(spec: SurveySpec): { schema: RJSFSchema; uiSchema: UiSchema } {
  const properties = spec.properties ?? {};
  const order = Object.keys(properties).sort(
    (a, b) =>
      Number(properties[a].propertyOrder ?? Number.MAX_SAFE_INTEGER) - Number(properties[b].propertyOrder ?? Number.MAX_SAFE_INTEGER),
  );
  const cleaned = Object.fromEntries(
    order.map((k) => {
      const { propertyOrder: _omit, ...rest } = properties[k];
      return [k, rest];
    }),
  );
  return {
    schema: {
      type: 'object',
      title: spec.title,
      description: spec.description,
      required: spec.required ?? [],
      properties: cleaned,
    } as RJSFSchema,
    uiSchema: { 'ui:order': [...order, '*'], 'ui:submitButtonOptions': { norender: true } },
  };
}

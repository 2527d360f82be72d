import type { FormProps } from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';

/** The props of the themed form (theme.tsx loads the form on demand; ThemedFormImpl.tsx draws it). */
export type ThemedFormProps<T = Record<string, unknown>> = Omit<
  FormProps<T, RJSFSchema>,
  'validator' | 'templates' | 'widgets' | 'showErrorList' | 'transformErrors'
> & {
  schema: RJSFSchema;
  uiSchema?: UiSchema<T, RJSFSchema>;
  /** Per field and ajv keyword, an i18n key for a field-specific message (e.g. zip pattern). */
  errorMessages?: Record<string, Record<string, string>>;
};

import { lazy, Suspense } from 'react';
import type { FormProps } from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';

/** Props of ThemedForm: an @rjsf Form without the validator and templates, which the theme supplies. */
export type ThemedFormProps<T = Record<string, unknown>> =
  Omit<FormProps<T, RJSFSchema>, 'validator' | 'templates' | 'widgets' | 'showErrorList' | 'transformErrors'> & {
    schema: RJSFSchema;
    uiSchema?: UiSchema<T, RJSFSchema>;
    /** Per field and ajv keyword, an i18n key for a field-specific message (e.g. zip pattern). */
    errorMessages?: Record<string, Record<string, string>>;
  };

// @rjsf and ajv are large: they load only when a screen actually draws a form.
const LazyForm = lazy(() => import('./ThemedFormImpl'));

/**
 * The storefront's @rjsf Form: ajv8 validation, our field templates (visible labels, errors linked by
 * aria-describedby, aria-invalid), error messages translated through i18n, no error list at the top
 * (screens show their own summary), first invalid field focused on submit.
 */
export function ThemedForm<T = Record<string, unknown>>(props: ThemedFormProps<T>) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<p className="form-loading">{t('app.loading')}</p>}>
      <LazyForm {...(props as ThemedFormProps)} />
    </Suspense>
  );
}

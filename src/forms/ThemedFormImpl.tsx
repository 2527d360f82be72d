import Form, { getDefaultRegistry } from '@rjsf/core';
import {
  errorId,
  getUiOptions,
  type BaseInputTemplateProps,
  type FieldErrorProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type RJSFSchema,
  type RJSFValidationError,
  type TemplatesType,
} from '@rjsf/utils';
import { use, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useStores } from '../stores/context';
import { translateErrors } from './errors';
import { loadFormValidator } from './precompiled';
import type { ThemedFormProps } from './types';

const DefaultBaseInput = getDefaultRegistry().templates.BaseInputTemplate;

/** Label above, input, then help and errors; the label names the control, errors are announced with it. */
function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, required, displayLabel, hidden, children, errors, help, description, rawErrors, classNames } = props;
  if (hidden) return <div hidden>{children}</div>;
  const invalid = (rawErrors?.length ?? 0) > 0;
  const isRoot = id === 'root' || props.schema.type === 'object';
  return (
    <div className={`form-field ${classNames ?? ''} ${invalid ? 'form-field--invalid' : ''}`.trim()}>
      {displayLabel && !isRoot && label && (
        <label htmlFor={id} className="form-field__label">
          {label}
          {required && (
            <span className="form-field__required" aria-hidden="true">
              {' '}
              *
            </span>
          )}
        </label>
      )}
      {displayLabel && !isRoot && description}
      {children}
      {help}
      {errors}
    </div>
  );
}

/** Inputs carry aria-invalid and point at their error text (the default template links the ids already). */
function BaseInputTemplate(props: BaseInputTemplateProps) {
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  const extra = { 'aria-invalid': invalid || undefined, 'aria-required': props.required || undefined };
  return <DefaultBaseInput {...props} {...(extra as Record<string, unknown>)} />;
}

function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const shown = errors.filter(Boolean);
  if (shown.length === 0) return null;
  return (
    <p id={errorId(fieldPathId)} className="form-field__error">
      {shown.map((e, i) => (
        <span key={i}>
          {e}
          {i < shown.length - 1 ? ' ' : ''}
        </span>
      ))}
    </p>
  );
}

/** An object's fields in a div, or in a fieldset named by its title (the group's accessible name) unless the
 *  uiSchema says `ui:label: false` because the screen already names the form. */
function ObjectFieldTemplate({ title, description, properties, fieldPathId, uiSchema }: ObjectFieldTemplateProps) {
  const fields = properties.map((p) => p.content);
  if (getUiOptions(uiSchema).label === false || !title) {
    return (
      <div id={fieldPathId.$id} className="form-object">
        {fields}
      </div>
    );
  }
  return (
    <fieldset id={fieldPathId.$id} className="form-object form-object--titled">
      <legend className="form-object__title">{title}</legend>
      {description && <p className="form-object__description">{description}</p>}
      <div className="form-object__fields">{fields}</div>
    </fieldset>
  );
}

const templates: Partial<TemplatesType> = { FieldTemplate, BaseInputTemplate, FieldErrorTemplate, ObjectFieldTemplate };

export default function ThemedFormImpl(props: ThemedFormProps) {
  const { t } = useTranslation();
  const { config } = useStores();
  const { errorMessages, ...rest } = props;
  // The server compiled this form's validator (forms/precompiled.ts); until it arrives ThemedForm shows loading.
  const validator = use(loadFormValidator(config.deployment.apiBaseUrl, props.schema));
  // rjsf names the root 'root' by default, the id of the app's mount node: every form gets its own prefix.
  const idPrefix = `form-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const transformErrors = (errors: RJSFValidationError[]) => translateErrors(errors as never, t, errorMessages) as RJSFValidationError[];
  return (
    <Form<Record<string, unknown>, RJSFSchema>
      idPrefix={idPrefix}
      {...rest}
      validator={validator}
      templates={templates}
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
      transformErrors={transformErrors}
    />
  );
}

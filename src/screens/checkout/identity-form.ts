import type { TFunction } from 'i18next';
import type { FormValidation, RJSFSchema, UiSchema } from '@rjsf/utils';
import schemaJson from '../../../schemas/identity-form.schema.json';
import { emailsMatch, type IdentityFormData } from '../../domain/checkout-rules';

export const identitySchema = schemaJson as unknown as RJSFSchema;

const FIELDS = ['first_name', 'last_name', 'email', 'email_confirm', 'phone', 'zip_code'] as const;
const LABELS: Record<(typeof FIELDS)[number], string> = {
  first_name: 'identity.firstName',
  last_name: 'identity.lastName',
  email: 'identity.email',
  email_confirm: 'identity.emailConfirm',
  phone: 'identity.phone',
  zip_code: 'identity.zip',
};
const AUTOCOMPLETE: Record<(typeof FIELDS)[number], string> = {
  first_name: 'given-name',
  last_name: 'family-name',
  email: 'email',
  email_confirm: 'email',
  phone: 'tel',
  zip_code: 'postal-code',
};

/** Translated labels, input types and autocomplete hints for the purchaser form. */
export function identityUiSchema(t: TFunction): UiSchema<IdentityFormData> {
  // The section heading names the form; the schema's own title would repeat it as a legend.
  const ui: UiSchema<IdentityFormData> = { 'ui:label': false, 'ui:submitButtonOptions': { norender: true } };
  for (const field of FIELDS) {
    ui[field] = {
      'ui:title': t(LABELS[field]),
      'ui:autocomplete': AUTOCOMPLETE[field],
      ...(field.startsWith('email') ? { 'ui:inputType': 'email' } : {}),
      ...(field === 'phone' ? { 'ui:inputType': 'tel' } : {}),
    } as UiSchema;
  }
  return ui;
}

/** Field-specific texts for ajv keywords the generic ones describe badly. */
export const identityErrorMessages = {
  email: { format: 'identity.emailInvalid' },
  email_confirm: { format: 'identity.emailInvalid' },
  zip_code: { pattern: 'identity.zipInvalid', minLength: 'identity.zipInvalid', maxLength: 'identity.zipInvalid' },
};

/** What the schema cannot say (spec section 5): names of blanks only are missing; the emails must match. */
export function validateIdentity(t: TFunction) {
  return (data: IdentityFormData | undefined, errors: FormValidation<IdentityFormData>) => {
    for (const field of ['first_name', 'last_name'] as const) {
      const value = data?.[field];
      if (typeof value === 'string' && value.trim() === '') errors[field]?.addError(t('checkout.fieldErrors.required'));
    }
    if (data?.email && data?.email_confirm && !emailsMatch(data.email, data.email_confirm)) {
      errors.email_confirm?.addError(t('identity.emailsMustMatch'));
    }
    return errors;
  };
}
